// A small HTTP server on 127.0.0.1 that answers whatever a case scripts: status records that break the schema, oversized bodies, echoed keys.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status?: number;
  contentType?: string;
  body: string;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type Script = (req: IncomingMessage) => ScriptedAnswer;

export interface HostileService {
  url: string;
  /** Requests answered since the last `script()`. */
  requests: { method: string; path: string }[];
  /** Answers every following request with `script`. */
  script(script: Script): void;
  stop(): Promise<void>;
}

export async function startHostileService(): Promise<HostileService> {
  let current: Script = () => ({ status: 500, body: '{"error":"server_error","message":"no script"}' });
  const requests: { method: string; path: string }[] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '' });
    req.resume();
    req.on('end', () => {
      const answer = current(req);
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' });
        res.end(answer.body);
      };
      if (answer.delayMs === undefined) send();
      else setTimeout(send, answer.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    script(script) {
      current = script;
      requests.length = 0;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A status record as the emulator writes it, with `changes` applied (undefined values delete the field). */
export function statusRecord(articleId: string, keyword: string, changes: Record<string, unknown> = {}): string {
  const record: Record<string, unknown> = {
    articleId,
    config: { targetKeyword: keyword },
    status: 'processing',
    statusDetail: 'Writing the introduction',
    updatedAt: Date.now(),
    progress: 0.4,
    error: null,
  };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete record[key];
    else record[key] = value;
  }
  return JSON.stringify(record);
}
