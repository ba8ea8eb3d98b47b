// The request log: one capped entry per HTTP request (never headers, keys or bodies), echoed as a line when asked.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from './context.js';
import type { RequestLogEntry } from './running-emulator.js';

/** The log keeps the most recent requests only. */
export const REQUEST_LOG_LIMIT = 200_000;

/** A request's place in the log and the parts of its URL the routes need. */
export interface LoggedRequest {
  entry: RequestLogEntry;
  pathname: string;
  query: URLSearchParams;
}

function parseUrl(req: IncomingMessage): { pathname: string; query: URLSearchParams } {
  try {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    return { pathname: url.pathname, query: url.searchParams };
  } catch {
    return { pathname: '(unparseable)', query: new URLSearchParams() };
  }
}

/** Log a request as it arrives; its status and duration are filled in as the exchange ends. */
export function logRequest(ctx: Pick<EmulatorContext, 'requests' | 'options'>, req: IncomingMessage, res: ServerResponse): LoggedRequest {
  const at = Date.now();
  const { pathname, query } = parseUrl(req);
  const entry: RequestLogEntry = { method: req.method ?? '', path: pathname, route: null, status: null, at };
  const { requests } = ctx;
  requests.push(entry);
  if (requests.length > REQUEST_LOG_LIMIT) requests.splice(0, requests.length - REQUEST_LOG_LIMIT);
  res.on('finish', () => {
    entry.status = res.statusCode;
    entry.durationMs = Date.now() - at;
  });
  res.on('close', () => {
    entry.durationMs ??= Date.now() - at;
    ctx.options.onRequest?.(`${entry.method} ${entry.path} ${entry.status ?? 'connection dropped'} ${entry.durationMs} ms${entry.fault === undefined ? '' : ` (fault: ${entry.fault})`}`);
  });
  return { entry, pathname, query };
}
