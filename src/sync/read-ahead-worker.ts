// The read-ahead thread (processed-store.ts, `readAhead`): reads and inflates each record, in the order the loader asks for
// them, takes its long text out of its JSON, and puts both into the shared ring (record-ring.ts), where the loader's thread
// takes them with no system call of its own.
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { inflate, RingWriter, takeOutText, type RingMemory, type RingRecord } from './record-ring.js';

const { files, memory, textMember } = workerData as { files: string[]; memory: RingMemory; textMember: string | undefined };
const ring = new RingWriter(memory);
let read = 0;
for (let i = 0; i < files.length && !ring.stopped; i = Math.max(i + 1, ring.taken)) {
  ring.reading(i);
  let record: RingRecord;
  try {
    const json = inflate(readFileSync(files[i]!)).toString('utf8');
    record = textMember === undefined ? { head: json, text: undefined } : takeOutText(json, textMember);
  } catch {
    // Missing, unreadable or damaged: the loader's own read says what to do about it.
    ring.skip(i);
    continue;
  }
  // A full ring: wait for the loader to take a record. `seen` is read before each try, so a take after it ends the wait at once.
  let seen = ring.taken;
  let placed = ring.place(i, record);
  while (placed === 'full' && !ring.stopped) {
    ring.wait(seen);
    seen = ring.taken;
    placed = ring.place(i, record);
  }
  if (placed === 'full') break;
  if (placed === 'placed') read += 1;
}
parentPort?.postMessage({ read });
