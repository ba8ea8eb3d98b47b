// Injected faults applied to one HTTP exchange: a delay, reset, 500 or 429 before processing; a reset, broken JSON or 500 after.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { failure, internalError, type Answer } from './answer.js';
import type { AfterFault, FaultInjector, FaultRoute } from './faults.js';
import { send } from './http-exchange.js';
import type { RequestLogEntry } from './running-emulator.js';

/**
 * Apply the faults drawn before processing: a delay, then a dropped connection, a 500 or a 429.
 * True when the request should go on to its route; false when it was answered or dropped here.
 */
export async function injectBeforeFaults(
  faults: FaultInjector,
  route: FaultRoute,
  req: IncomingMessage,
  res: ServerResponse,
  entry: RequestLogEntry,
): Promise<boolean> {
  const { delayMs, fault } = faults.before(route);
  if (delayMs > 0) {
    entry.fault = 'slow';
    await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
    if (res.destroyed) return false;
  }
  if (fault.kind === 'reset') {
    entry.fault = 'reset_before_processing';
    req.socket.destroy();
    return false;
  }
  if (fault.kind === 'server_error') {
    entry.fault = 'server_error';
    writeAnswer(res, entry, internalError(), 'none', false);
    return false;
  }
  if (fault.kind === 'rate_limited') {
    entry.fault = 'rate_limited';
    const retryAfter = String(fault.retryAfterSeconds);
    writeAnswer(res, entry, failure(429, 'rate_limited', `Too many requests; retry after ${retryAfter} s.`, undefined, { 'retry-after': retryAfter }), 'none', false);
    return false;
  }
  return true;
}

/** Send an answer, or what the fault drawn after processing makes of it (logged on the entry). */
export function writeAnswer(res: ServerResponse, entry: RequestLogEntry, answer: Answer, after: AfterFault, head: boolean, close = false): void {
  if (after === 'reset') {
    entry.fault = 'reset_after_processing';
    res.socket?.destroy();
    return;
  }
  if (after === 'server_error') {
    entry.fault = 'server_error_after_processing';
    const failed = internalError();
    send(res, failed.status, failed.body, failed.contentType, failed.headers, { head, close });
    return;
  }
  let body = answer.body;
  if (after === 'truncated_json') {
    entry.fault = 'truncated_json';
    body = Buffer.from(body).subarray(0, Math.max(1, Math.floor(Buffer.byteLength(body) / 2)));
  } else if (after === 'invalid_json') {
    entry.fault = 'invalid_json';
    body = `${String(body).replace(/\}\s*$/, '')},}`;
  }
  send(res, answer.status, body, answer.contentType, answer.headers, { head, close });
}
