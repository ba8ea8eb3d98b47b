// The request pipeline: route → auth → rate limit → faults → handler → faults on the answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Account } from './accounts.js';
import { failure, type Answer } from './answer.js';
import type { EmulatorContext } from './context.js';
import type { AfterFault } from './faults.js';
import { injectBeforeFaults, writeAnswer } from './http-faults.js';
import { authenticate, overRateLimit } from './request-gate.js';
import { logRequest } from './request-log.js';
import type { RequestLogEntry } from './running-emulator.js';
import { health } from './routes/admin.js';
import { matchRoute, runRoute, type HandledRoute } from './routes/index.js';

/** A request let through to its route, or the answer that stops it first. */
type Admission = { answer: Answer } | { route: HandledRoute; account: Account | undefined };

/** Match the route and check method, key and rate limit (the image route needs no key). */
function admit(ctx: EmulatorContext, req: IncomingMessage, pathname: string, entry: RequestLogEntry): Admission {
  const route = matchRoute(pathname);
  if (route === undefined) {
    return { answer: failure(404, 'not_found', `No route ${pathname}: the service has POST /api/articles/, GET /api/articles/{id} and POST /api/internal-links/.`) };
  }
  entry.route = route.name;
  const method = req.method ?? '';
  if (!route.allow.includes(method)) {
    return { answer: failure(405, 'method_not_allowed', `${method} is not allowed on ${pathname}; use ${route.allow.join(' or ')}.`, undefined, { allow: route.allow.join(', ') }) };
  }
  if (route.name === 'health') return { answer: health() };
  if (route.name === 'image') return { route, account: undefined };
  const account = authenticate(ctx.accounts, req);
  if (!('keyDigest' in account)) return { answer: account };
  entry.account = account.name;
  const limited = route.name === 'ledger' ? undefined : overRateLimit(ctx.limiter, account);
  if (limited !== undefined) return { answer: limited };
  return { route, account };
}

/** Drain a little of an oversized body so the client can read the 413, then let go. */
function drainRefusedBody(req: IncomingMessage, maxBodyBytes: number): void {
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBodyBytes * 4) req.socket.destroy();
  });
  req.resume();
}

/** Answer one HTTP request. */
export async function handleRequest(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { entry, pathname, query } = logRequest(ctx, req, res);
  const admitted = admit(ctx, req, pathname, entry);
  if ('answer' in admitted) {
    writeAnswer(res, entry, admitted.answer, 'none', false);
    return;
  }
  const { route, account } = admitted;
  const faultRoute = route.name === 'ledger' ? undefined : route.name;
  if (faultRoute !== undefined && !(await injectBeforeFaults(ctx.faults.current, faultRoute, req, res, entry))) return;

  const result = await runRoute(ctx, route, req, query, account);
  const ok = result.answer.status >= 200 && result.answer.status < 300;
  const after: AfterFault = faultRoute !== undefined && ok ? ctx.faults.current.after(faultRoute, result.answer.json) : 'none';
  writeAnswer(res, entry, result.answer, after, req.method === 'HEAD', result.close === true);
  if (result.close === true) drainRefusedBody(req, ctx.maxBodyBytes);
}
