// The read-ahead thread (processed-store.ts, `readAhead`): reads and inflates each record, in the order the loader asks for
// them, into the shared ring (record-ring.ts), where the loader's thread takes it with no system call of its own.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { inflate, RingWriter, type RingMemory } from './record-ring.js';

const { files, memory } = workerData as { files: string[]; memory: RingMemory };
const ring = new RingWriter(memory);
let read = 0;
for (let i = 0; i < files.length && !ring.stopped; i = Math.max(i + 1, ring.taken)) {
  let bytes: Buffer;
  try {
    bytes = inflate(readFileSync(files[i]!));
  } catch {
    // Missing, unreadable or damaged: the loader's own read says what to do about it.
    ring.skip(i);
    continue;
  }
  // A full ring: wait for the loader to take a record. `seen` is read before each try, so a take after it ends the wait at once.
  let seen = ring.taken;
  let placed = ring.place(i, bytes);
  while (placed === 'full' && !ring.stopped) {
    ring.wait(seen);
    seen = ring.taken;
    placed = ring.place(i, bytes);
  }
  if (placed === 'full') break;
  if (placed === 'placed') read += 1;
}
parentPort?.postMessage({ read });
