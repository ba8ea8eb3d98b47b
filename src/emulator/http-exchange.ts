// Reading request bodies within a size limit and writing JSON, text and error answers.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Error codes of the emulator's error bodies `{ error, message, fields? }`. */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'plan_required'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'idempotency_conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'server_error';

export class BodyTooLarge extends Error {}
export class BodyNotUtf8 extends Error {}

/** Read the whole body, refusing (without buffering further) once it exceeds `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      reject(new BodyTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer): void => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        done = true;
        chunks.length = 0;
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (done) return;
      done = true;
      try {
        resolve(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        reject(new BodyNotUtf8());
      }
    });
    req.on('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
  });
}

/** Whether the Content-Type is JSON (`application/json`, optionally with parameters, or `+json`). */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const type = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

export function errorBody(code: ErrorCode, message: string, fields?: { path: string; message: string }[]): string {
  return JSON.stringify(fields === undefined ? { error: code, message } : { error: code, message, fields });
}

/** Send an answer; `close` asks the client to drop the connection afterwards. */
export function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  contentType: string,
  headers: Record<string, string> = {},
  options: { close?: boolean; head?: boolean } = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(payload.length),
    'cache-control': 'no-store',
    ...(options.close === true ? { connection: 'close' } : {}),
    ...headers,
  });
  res.end(options.head === true ? undefined : payload);
}

export const JSON_TYPE = 'application/json; charset=utf-8';
