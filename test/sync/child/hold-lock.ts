// Child for the stale-lock test: takes the inter-process lock and holds it until it is killed.
import { withProcessLock } from '../../../src/sync/index.js';

const [file, staleMs] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: hold-lock.ts <lock file> [staleMs]');

await withProcessLock(
  file,
  async () => {
    console.log('locked');
    await new Promise(() => setInterval(() => undefined, 1_000));
  },
  { staleMs: Number(staleMs ?? 10_000) },
);
