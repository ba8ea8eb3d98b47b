// A tiny real HTTP server for client tests: answers each route from a script and records every request.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One scripted answer. The last answer of a route repeats for every later request. */
export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: string | object; delayMs?: number; encoding?: 'gzip' | 'br' | 'deflate' }
  /** Destroy the socket as soon as the request has arrived: a reset after the request was sent. */
  | { reset: true }
  /** Send headers and part of the body (declaring more), then destroy the socket, or with `stall` keep it open. */
  | { status: number; partialBody: string; stall?: boolean; headers?: Record<string, string> }
  /** Never answer; the socket is destroyed by `stop()` or by the client. */
  | { hang: true }
  | ((request: RecordedRequest) => ScriptedAnswer);

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  /** Requests whose answer has not finished yet, and the most there ever were at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Scripts `METHOD path` (exact path, query included). Replaces an earlier script of that route. */
  route(method: string, path: string, ...answers: ScriptedAnswer[]): void;
  /** Resolves once `count` requests have arrived in all. */
  waitForRequests(count: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startScriptedServer(): Promise<ScriptedServer> {
  const routes = new Map<string, ScriptedAnswer[]>();
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;

  const server = http.createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on('close', () => {
      inFlight -= 1;
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const queue = routes.get(`${recorded.method} ${recorded.path}`);
      let answer: ScriptedAnswer = { status: 404, body: { error: 'not_found', message: `no script for ${recorded.method} ${recorded.path}` } };
      if (queue && queue.length > 0) answer = queue.length > 1 ? (queue.shift() as ScriptedAnswer) : (queue[0] as ScriptedAnswer);
      respond(req, res, typeof answer === 'function' ? answer(recorded) : answer);
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    route(method, path, ...answers) {
      routes.set(`${method} ${path}`, answers);
    },
    waitForRequests(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

function respond(req: http.IncomingMessage, res: http.ServerResponse, answer: ScriptedAnswer): void {
  if (typeof answer === 'function') throw new Error('a scripted answer function must return an answer, not another function');
  if ('reset' in answer) {
    req.socket.destroy();
    return;
  }
  if ('hang' in answer) return;
  if ('partialBody' in answer) {
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(answer.partialBody) + 100), ...answer.headers });
    res.write(answer.partialBody, () => {
      if (!answer.stall) req.socket.destroy();
    });
    return;
  }
  const send = () => {
    if (res.destroyed) return;
    const isText = typeof answer.body === 'string' || answer.body === undefined;
    const body = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const headers: Record<string, string> = isText ? {} : { 'content-type': 'application/json' };
    if (answer.encoding === undefined) {
      res.writeHead(answer.status, { ...headers, ...answer.headers });
      res.end(body);
      return;
    }
    const encode = { gzip: zlib.gzipSync, br: zlib.brotliCompressSync, deflate: zlib.deflateSync }[answer.encoding];
    res.writeHead(answer.status, { ...headers, 'content-encoding': answer.encoding, ...answer.headers });
    res.end(encode(body));
  };
  if (answer.delayMs) {
    const timer = setTimeout(send, answer.delayMs);
    res.on('close', () => clearTimeout(timer));
  } else {
    send();
  }
}

/**
 * A port nothing listens on: one below Linux's ephemeral range (32768 and up), found free by binding it once. A
 * released ephemeral port could be handed to a server another test starts meanwhile; a port below the range
 * never is, as every server in the suite listens on port 0.
 */
export async function closedPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = http.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }
}
