// A loopback stand-in of an OpenAI-compatible Chat Completions server: deterministic answers derived from the prompt, streamed (SSE) or JSON, and the failures real servers have.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatRequestBody {
  model: string;
  messages: { role: string; content: string }[];
  max_tokens?: number;
  stream?: boolean;
}

/** What a call asked for, read from its prompt the way the answers are chosen. */
export type CallKind = 'outline' | 'title' | 'introduction' | 'takeaways' | 'supplemental' | 'faq' | 'conclusion' | 'body';

export interface RecordedCall {
  index: number;
  kind: CallKind;
  body: ChatRequestBody;
  /** The Authorization header as received (the stand-in may see the key; nothing else may). */
  authorization: string | undefined;
  system: string;
  user: string;
}

/**
 * - `refuse`: the socket is destroyed before any answer (a reset).
 * - `server_error`: HTTP 500. `overloaded`: 503. `unauthorized`: 401. `not_found`: 404.
 * - `context`: HTTP 400 as llama.cpp says a prompt is too long for its context.
 * - `hang`: never answers (until the stand-in stops).
 * - `empty`: an answer with no text. `length`: finish_reason "length".
 * - `stream_error`: an error chunk mid-stream. `cut_stream`: the stream ends with no finish_reason and no [DONE].
 * - `echo_key`: HTTP 500 whose body echoes the Authorization header raw, base64- and URL-encoded.
 * - `linger`: a complete streamed answer, [DONE] included, whose response is never ended.
 * - `redirect`: HTTP 307 to another path (a proxy in front of the model).
 */
export type StandInFault = 'linger' | 'redirect' | 'refuse' | 'server_error' | 'overloaded' | 'unauthorized' | 'not_found' | 'context' | 'hang' | 'empty' | 'length' | 'stream_error' | 'cut_stream' | 'echo_key';

export interface StandInOptions {
  /** Honour `stream: true` with SSE; false answers JSON whatever is asked (a server without streaming). Default true. */
  streaming?: boolean;
  /** The fault for a call, if any. */
  fault?: (call: RecordedCall) => StandInFault | undefined;
  /** Awaited before answering: tests hold a call to look at the emulator meanwhile. */
  before?: (call: RecordedCall) => Promise<void> | void;
  /** An answer of its own for a call (undefined: the deterministic one). */
  answer?: (call: RecordedCall) => string | undefined;
  /** Words per streamed chunk. Default 3. */
  chunkWords?: number;
}

export interface StandIn {
  /** The base URL the writer is given: `http://127.0.0.1:<port>/v1`. */
  url: string;
  calls: RecordedCall[];
  /** Most calls answered at the same time. */
  maxInFlight: number;
  /** TCP connections the writer opened. */
  connections: number;
  stop(): Promise<void>;
}

function kindOf(user: string): CallKind {
  if (user.includes('Reply in exactly this form')) return 'outline';
  if (user.includes('Reply with exactly one line')) return 'title';
  if (user.includes('Write the introduction')) return 'introduction';
  if (user.includes('key takeaways')) return 'takeaways';
  if (user.includes('supplemental sections')) return 'supplemental';
  if (user.includes('frequently asked questions')) return 'faq';
  if (user.includes('Write the conclusion')) return 'conclusion';
  return 'body';
}

const WORDS = ['grind', 'water', 'bloom', 'kettle', 'filter', 'ratio', 'aroma', 'temperature', 'pour', 'balance', 'roast', 'bean', 'scale', 'timer', 'body', 'clarity'];

/** `count` words of deterministic prose seeded by `seed`, in sentences of eight words. */
function prose(seed: string, count: number): string {
  const digest = createHash('sha256').update(seed).digest();
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(WORDS[(digest[i % digest.length]! + i) % WORDS.length]!);
  const sentences: string[] = [];
  for (let i = 0; i < words.length; i += 8) {
    const sentence = words.slice(i, i + 8).join(' ');
    sentences.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
  }
  return sentences.join(' ');
}

function keywordOf(system: string): string {
  return /about "([^"]+)"/.exec(system)?.[1] ?? 'the topic';
}

/** The deterministic answer to a call: what a well-behaved model would write, in the format asked. */
export function answerFor(call: Pick<RecordedCall, 'kind' | 'system' | 'user'>): string {
  const keyword = keywordOf(call.system);
  const words = Number(/about (\d+) words/.exec(call.user)?.[1] ?? 60);
  switch (call.kind) {
    case 'outline': {
      const count = Number(/exactly (\d+) numbered/.exec(call.user)?.[1] ?? 3);
      const lines = Array.from({ length: count }, (_, i) => `${i + 1}. Stand-in heading ${i + 1} on ${keyword}`);
      return `Title: The Stand-in Guide to ${keyword}\n${lines.join('\n')}`;
    }
    case 'title':
      return `Title: The Stand-in Guide to ${keyword}`;
    case 'takeaways':
      return '- Stand-in takeaway one.\n- Stand-in takeaway two.\n- Stand-in takeaway three.';
    case 'supplemental':
      return `## Stand-in extra tips\n\n${prose(`${call.user}:tips`, 40)}\n\n## Stand-in buying advice\n\n${prose(`${call.user}:buy`, 40)}`;
    case 'faq':
      return `### What is stand-in ${keyword}?\n\n${prose(`${call.user}:q1`, 16)}\n\n**How long does stand-in ${keyword} take?**\n\n${prose(`${call.user}:q2`, 16)}`;
    case 'body': {
      const heading = /Write (?:the section|the list entry|the review of the product) "([^"]+)"/.exec(call.user)?.[1] ?? 'Section';
      // Models repeat the heading they were given; the writer drops it.
      return `## ${heading}\n\nStand-in text for ${heading}. ${prose(call.user, Math.max(8, words - 12))}\n\n- **Stand-in** point one\n- Stand-in point two`;
    }
    default:
      return `Stand-in ${call.kind}. ${prose(call.user, Math.max(8, words - 2))}`;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function completion(text: string, finishReason: string): object {
  return { id: 'chatcmpl-stand-in', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finishReason }] };
}

function chunk(delta: object, finishReason: string | null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-stand-in', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
}

function stream(res: ServerResponse, text: string, finishReason: string, fault: StandInFault | undefined, chunkWords: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(': stand-in comment line\n\n');
  res.write(chunk({ role: 'assistant', content: '' }, null));
  const pieces = text.split(/(?<=\s)/);
  for (let i = 0; i < pieces.length; i += chunkWords) res.write(chunk({ content: pieces.slice(i, i + chunkWords).join('') }, null));
  if (fault === 'stream_error') {
    res.end(`data: ${JSON.stringify({ error: { code: 500, message: 'stand-in: the model crashed mid-answer', type: 'server_error' } })}\n\n`);
    return;
  }
  if (fault === 'cut_stream') {
    res.end();
    return;
  }
  res.write(chunk({}, finishReason));
  res.write('data: [DONE]\n\n');
  if (fault === 'linger') return;
  // The response's end a moment later, as it crosses the network from a real server: a reader that
  // stops at [DONE] must not cancel the body, or the connection is closed instead of kept.
  setTimeout(() => res.end(), 5);
}

/** The answer for a fault that is not a well-formed completion; true when it answered. */
function answerFault(req: IncomingMessage, res: ServerResponse, fault: StandInFault | undefined): boolean {
  const auth = req.headers.authorization ?? '';
  switch (fault) {
    case 'refuse':
      req.socket.destroy();
      return true;
    case 'hang':
      return true;
    case 'server_error':
      sendJson(res, 500, { error: { code: 500, message: 'stand-in: internal error', type: 'server_error' } });
      return true;
    case 'redirect':
      res.writeHead(307, { location: '/api/v1/chat/completions' }).end();
      return true;
    case 'overloaded':
      sendJson(res, 503, { error: { code: 503, message: 'stand-in: loading model', type: 'unavailable_error' } });
      return true;
    case 'unauthorized':
      sendJson(res, 401, { error: { code: 401, message: 'Invalid API Key', type: 'authentication_error' } });
      return true;
    case 'not_found':
      sendJson(res, 404, { error: { code: 404, message: 'File Not Found', type: 'not_found_error' } });
      return true;
    case 'context':
      sendJson(res, 400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 5120, n_ctx: 4096 } });
      return true;
    case 'echo_key': {
      const echoed = `${auth} ${Buffer.from(auth).toString('base64')} ${encodeURIComponent(auth.replace(/^Bearer /, ''))} ${Buffer.from(auth.replace(/^Bearer /, '')).toString('base64')}`;
      sendJson(res, 500, { error: { code: 500, message: `stand-in: bad header ${echoed}`, type: 'server_error' } });
      return true;
    }
    default:
      return false;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

/** Start the stand-in on an ephemeral loopback port. */
export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const calls: RecordedCall[] = [];
  let inFlight = 0;
  const standIn: StandIn = { url: '', calls, maxInFlight: 0, connections: 0, stop: async () => {} };
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return sendJson(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
      const body = JSON.parse(await readBody(req)) as ChatRequestBody;
      const system = body.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      const call: RecordedCall = { index: calls.length, kind: kindOf(user), body, authorization: req.headers.authorization, system, user };
      calls.push(call);
      inFlight++;
      standIn.maxInFlight = Math.max(standIn.maxInFlight, inFlight);
      res.on('close', () => inFlight--);
      await options.before?.(call);
      const fault = options.fault?.(call);
      if (answerFault(req, res, fault)) return;
      const text = fault === 'empty' ? '' : (options.answer?.(call) ?? answerFor(call));
      const finishReason = fault === 'length' ? 'length' : 'stop';
      if (body.stream === true && options.streaming !== false) stream(res, text, finishReason, fault, options.chunkWords ?? 3);
      else sendJson(res, 200, completion(text, finishReason));
    })();
  });
  server.on('connection', () => standIn.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  standIn.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return standIn;
}
