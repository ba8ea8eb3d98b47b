// Sending one attempt over the client's connection pool, within its deadline, and turning what happens into an outcome.
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { Pool } from 'undici';
import { statusFailure } from './answer-reading.js';
import type { AttemptFailure } from './attempt-failure.js';
import type { Answer, CallDefinition } from './call-definition.js';
import { networkFailure } from './network-failure.js';
import type { AttemptOutcome } from './retry-policy.js';

/** A connection that takes this long is not going to come; beyond it, keep the rest of the attempt budget. */
const MAX_CONNECT_TIMEOUT_MS = 10_000;
/** A compressed answer is decoded up to this size (an article is at most a few megabytes): a small gzip can hold gigabytes. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;
const DECODERS: Readonly<Record<string, (bytes: Buffer, options: ZlibOptions & BrotliOptions) => Promise<Buffer>>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
  identity: async (bytes) => bytes,
};

/**
 * The answer's text, or what keeps it from being read. We send no Accept-Encoding, which lets a service (or a proxy
 * before it) compress its answers any way it likes (RFC 9110): gzip, deflate and br are decoded (undecoded, a
 * compressed answer to a create read as "not JSON" and left a billed article unknown). Another coding, or an answer
 * decoding past MAX_DECODED_BYTES, is an unreadable answer.
 */
async function decodedText(bytes: Buffer, contentEncoding: string | string[] | undefined): Promise<{ text: string } | { problem: string }> {
  const codings = [contentEncoding ?? []].flat().join(',').split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '');
  let decoded = bytes;
  // Listed in the order they were applied: undone from the last.
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (decode === undefined) return { problem: `the answer is encoded as ${JSON.stringify(coding.slice(0, 40))}, which the client cannot decode` };
    try {
      decoded = await decode(decoded, { maxOutputLength: MAX_DECODED_BYTES });
    } catch (error) {
      const tooLong = (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      return { problem: tooLong ? `the answer decodes to more than ${MAX_DECODED_BYTES / 1024 / 1024} MiB` : `the answer is not valid ${coding} (${(error as Error).message})` };
    }
  }
  return { text: decoded.toString('utf8') };
}

const USER_AGENT = userAgent();

function userAgent(): string {
  try {
    const manifest = createRequire(import.meta.url)('../../package.json') as { name?: unknown; version?: unknown };
    if (manifest.name === 'astro-article-loader' && typeof manifest.version === 'string') {
      return `astro-article-loader/${manifest.version} (node ${process.versions.node})`;
    }
  } catch {
    // Bundled without its package.json: the name alone still identifies us.
  }
  return `astro-article-loader (node ${process.versions.node})`;
}

/** The connections of one client, and how one attempt of a call goes over them. */
export interface HttpExchange {
  /** One attempt of `call`: ends by `timeoutMs` at the latest, or at once when `signal` aborts. Never throws. */
  send<T>(call: CallDefinition<T>, signal: AbortSignal | undefined): Promise<AttemptOutcome<T, AttemptFailure>>;
  /** Lets in-flight requests finish, then closes the connections. */
  close(): Promise<void>;
}

/** What the exchange needs of the client's settings: where, with which key, how long, how many connections. */
export interface ExchangeSettings {
  origin: string;
  apiKey: string;
  timeoutMs: number;
  concurrency: number;
  redact: (text: string) => string;
}

/** A pool of `concurrency` connections to `origin` (closed by `close()`), and the sending of one attempt over it. */
export function createHttpExchange(settings: ExchangeSettings): HttpExchange {
  const { timeoutMs, redact } = settings;
  // One pool per client, not per origin process-wide: `close()` then closes exactly this
  // client's connections, and its size matches this client's concurrency limit.
  const pool = new Pool(settings.origin, {
    connections: settings.concurrency,
    connect: { timeout: Math.max(1, Math.min(MAX_CONNECT_TIMEOUT_MS, Math.floor(timeoutMs / 2))) },
    // The per-attempt timer below is the single source of timeouts.
    headersTimeout: 0,
    bodyTimeout: 0,
  });

  async function send<T>(call: CallDefinition<T>, signal: AbortSignal | undefined): Promise<AttemptOutcome<T, AttemptFailure>> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), timeoutMs);
    const attemptSignal = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
    const headers = requestHeaders(call, settings.apiKey);
    try {
      const response = await pool.request({ method: call.method, path: call.path, headers, body: call.body ?? null, signal: attemptSignal });
      const decoded = await decodedText(Buffer.from(await response.body.arrayBuffer()), response.headers['content-encoding']);
      if ('problem' in decoded) return { ok: false, failure: { kind: 'unreadable', status: response.statusCode, detail: decoded.problem } };
      const answer: Answer = { status: response.statusCode, headers: response.headers, text: decoded.text };
      if (answer.status >= 200 && answer.status < 300) return call.read(answer);
      return { ok: false, failure: statusFailure(answer, redact) };
    } catch (error) {
      if (signal?.aborted) return { ok: false, failure: { kind: 'aborted', detail: 'aborted by the caller', maybeSent: true } };
      if (timer.signal.aborted) return { ok: false, failure: { kind: 'timeout', detail: `no answer within ${timeoutMs} ms`, timeoutMs } };
      return { ok: false, failure: networkFailure(error, redact) };
    } finally {
      clearTimeout(timeout);
    }
  }

  return { send, close: () => pool.close() };
}

function requestHeaders(call: CallDefinition<unknown>, apiKey: string): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${apiKey}`,
    'user-agent': USER_AGENT,
    accept: call.accept,
  };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
  return headers;
}
