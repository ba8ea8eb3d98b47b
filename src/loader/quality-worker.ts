// The quality worker thread (see quality-thread.ts): takes the pass's settings and collection once, then checks one article per task.
import { parentPort } from 'node:worker_threads';
import { articleQuality } from '../quality/index.js';
import type { PassChecks, QualityReply, QualityRequest } from './quality-thread.js';

const port = parentPort!;
let checks: PassChecks | undefined;

async function check({ id, article }: Extract<QualityRequest, { type: 'task' }>): Promise<void> {
  try {
    const quality = await articleQuality({ ...article, collection: checks!.collection }, checks!.options);
    // The shingles move back to the loader's thread instead of being copied.
    port.postMessage({ id, ok: true, quality } satisfies QualityReply, quality.shingles ? [quality.shingles.buffer as ArrayBuffer] : []);
  } catch (error) {
    const { name, code, message } = error as { name?: string; code?: unknown; message?: string };
    port.postMessage({ id, ok: false, error: { name: name ?? 'Error', code: typeof code === 'string' ? code : undefined, message: message ?? String(error) } } satisfies QualityReply);
  }
}

port.on('message', (message: QualityRequest) => {
  if (message.type === 'init') checks = message.checks;
  else void check(message);
});
