// A pipeline worker thread (see pipeline-pool.ts): takes the pass's settings once, then processes one article per task.
// The settings' functions are stand-ins that call the real ones on the loader's thread.
import { parentPort } from 'node:worker_threads';
import type { SiteContext } from './article-entry.js';
import { FUNCTION_MARK, runJob, type SentResponse, type WorkerMessage, type WorkerRequest } from './pipeline-pool.js';
import { inlineChecker, type QualityChecker } from './quality-thread.js';
import { sentError } from './thread-errors.js';

const port = parentPort!;
const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
let nextCall = 0;
let site: SiteContext | undefined;
let checker: QualityChecker | undefined;

function post(message: WorkerMessage): void {
  port.postMessage(message);
}

/** A stand-in for the loader-thread function `fn`. Arguments that cannot cross (an AbortSignal) are left out: the loader applies its own limits. */
function remote(fn: number): (...args: unknown[]) => Promise<unknown> {
  return (...args) =>
    new Promise((resolve, reject) => {
      const call = nextCall++;
      calls.set(call, { resolve, reject });
      post({ type: 'call', call, fn, args: args.map(sendable) });
    });
}

function sendable(value: unknown): unknown {
  if (value instanceof AbortSignal) return undefined;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).filter(([, member]) => !(member instanceof AbortSignal)));
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value !== null && typeof value === 'object') {
    const mark = (value as Record<string, unknown>)[FUNCTION_MARK];
    if (typeof mark === 'number') return remote(mark);
    return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, decode(member)]));
  }
  return value;
}

function received(value: unknown): unknown {
  const sent = value as SentResponse | null;
  if (sent === null || typeof sent !== 'object' || sent[FUNCTION_MARK] !== 'response') return value;
  const nullBody = sent.status === 204 || sent.status === 304 || (sent.status >= 300 && sent.status < 400 && (sent.body?.byteLength ?? 0) === 0);
  return new Response(nullBody ? null : sent.body, { status: sent.status, statusText: sent.statusText, headers: sent.headers });
}

async function run(id: number, job: Extract<WorkerRequest, { type: 'task' }>['job']): Promise<void> {
  try {
    post({ type: 'done', id, ok: true, record: await runJob(site!, job, checker) });
  } catch (error) {
    post({ type: 'done', id, ok: false, error: sentError(error) });
  }
}

port.on('message', (message: WorkerRequest) => {
  if (message.type === 'init') {
    site = decode(message.site) as SiteContext;
    checker = message.checks && inlineChecker(message.checks);
  }
  else if (message.type === 'task') void run(message.id, message.job);
  else {
    const call = calls.get(message.call);
    calls.delete(message.call);
    if (message.ok) call?.resolve(received(message.value));
    else call?.reject(new Error(message.error));
  }
});
