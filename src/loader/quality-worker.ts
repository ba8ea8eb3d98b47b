// The quality worker thread (see quality-thread.ts): takes the pass's settings and collection once, then checks one article per task.
import { parentPort } from 'node:worker_threads';
import { articleQuality } from '../quality/index.js';
import type { PassChecks, QualityReply, QualityRequest } from './quality-thread.js';
import { sentError } from './thread-errors.js';

const port = parentPort!;
let checks: PassChecks | undefined;

async function check({ id, article }: Extract<QualityRequest, { type: 'task' }>): Promise<void> {
  try {
    const quality = await articleQuality({ ...article, collection: checks!.collection }, checks!.options);
    // The shingles move back to the loader's thread instead of being copied.
    port.postMessage({ id, ok: true, quality } satisfies QualityReply, quality.shingles ? [quality.shingles.buffer as ArrayBuffer] : []);
  } catch (error) {
    port.postMessage({ id, ok: false, error: sentError(error) } satisfies QualityReply);
  }
}

port.on('message', (message: QualityRequest) => {
  if (message.type === 'init') checks = message.checks;
  else void check(message);
});
