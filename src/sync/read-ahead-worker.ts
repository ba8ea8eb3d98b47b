// The read-ahead thread (processed-store.ts, `readAhead`): reads each file once and keeps nothing, so the loader's own
// reads of them, in the same order just after, find them in the operating system's page cache.
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const buffer = Buffer.allocUnsafe(64 * 1024);
let read = 0;
for (const file of (workerData as { files: string[] }).files) {
  try {
    const fd = openSync(file, 'r');
    try {
      while (readSync(fd, buffer, 0, buffer.length, null) === buffer.length);
    } finally {
      closeSync(fd);
    }
    read += 1;
  } catch {
    // A record that is missing or unreadable: the loader's own read says what to do about it.
  }
}
parentPort?.postMessage({ read });
