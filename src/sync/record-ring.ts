// The shared ring of a read-ahead (processed-store.ts, `readAhead`): a thread of its own (read-ahead-worker.ts) reads and
// inflates the records in the order the loader will ask for them, into shared memory; the loader's thread takes each one
// from there, with no system call and no message. Both sides are here, so the layout is declared once.
//
// The loader's thread never waits on the ring: a record the thread has not reached yet (or could not read) is read as
// before, and the thread then skips ahead past it. The thread waits when the ring is full, until the loader takes a record.
import { gunzipSync } from 'node:zlib';

/** Bytes of inflated records the ring holds at once (a record is 15–25 KB: about 800 of them). */
const RING_BYTES = 16 * 1024 * 1024;

/** A record's state in `slots` (3 numbers a record: state, offset, length): not read yet (0), ready, or skipped. */
const READY = 1;
/** Missing, unreadable, damaged or larger than half the ring: the loader reads it itself. */
const SKIPPED = 2;

/** `control`: the index below which the loader takes no more records (the thread may reuse their bytes), and the stop flag. */
const TAKEN = 0;
const STOPPED = 1;

/** The memory both threads share. */
export interface RingMemory {
  control: SharedArrayBuffer;
  slots: SharedArrayBuffer;
  ring: SharedArrayBuffer;
}

/** The shared memory of a read-ahead of `records` records, with a ring of `bytes`. */
export function ringMemory(records: number, bytes = RING_BYTES): RingMemory {
  return { control: new SharedArrayBuffer(8), slots: new SharedArrayBuffer(Math.max(1, records) * 12), ring: new SharedArrayBuffer(bytes) };
}

/** The loader's side: a record's inflated bytes, when the thread has them ready. */
export class RingReader {
  readonly #index: Map<string, number>;
  readonly #control: Int32Array;
  readonly #slots: Int32Array;
  readonly #ring: SharedArrayBuffer;
  #taken = 0;
  /** How many records `use` was run on. */
  #used = 0;

  constructor(files: readonly string[], memory: RingMemory) {
    this.#index = new Map(files.map((file, i) => [file, i]));
    this.#control = new Int32Array(memory.control);
    this.#slots = new Int32Array(memory.slots);
    this.#ring = memory.ring;
  }

  /**
   * `use` run on the bytes of `file` when the ring has them, its result returned; undefined when it has not (the caller
   * reads the file itself). Either way the thread may then reuse the bytes of this record and of every one before it.
   * The bytes are valid only inside `use`.
   */
  take<T>(file: string, use: (bytes: Buffer) => T): T | undefined {
    const i = this.#index.get(file);
    if (i === undefined || i < this.#taken) return undefined;
    try {
      if (Atomics.load(this.#slots, i * 3) !== READY) return undefined;
      this.#used += 1;
      return use(Buffer.from(this.#ring, this.#slots[i * 3 + 1], this.#slots[i * 3 + 2]));
    } finally {
      this.#taken = i + 1;
      Atomics.store(this.#control, TAKEN, this.#taken);
      Atomics.notify(this.#control, TAKEN);
    }
  }

  /** Stops the thread; returns how many records were taken from the ring. */
  stop(): number {
    Atomics.store(this.#control, STOPPED, 1);
    Atomics.notify(this.#control, TAKEN);
    return this.#used;
  }
}

/** Where a record's bytes start in the ring. */
interface Placed {
  index: number;
  start: number;
}

/** The thread's side: places each record in the ring, where it fits without touching a record the loader may still take. */
export class RingWriter {
  readonly #control: Int32Array;
  readonly #slots: Int32Array;
  readonly #ring: Uint8Array;
  /** What the ring holds, oldest first. */
  readonly #placed: Placed[] = [];
  #head = 0;

  constructor(memory: RingMemory) {
    this.#control = new Int32Array(memory.control);
    this.#slots = new Int32Array(memory.slots);
    this.#ring = new Uint8Array(memory.ring);
  }

  get stopped(): boolean {
    return Atomics.load(this.#control, STOPPED) === 1;
  }

  /** The first record the loader may still take: records before it need not be read. */
  get taken(): number {
    return Atomics.load(this.#control, TAKEN);
  }

  skip(index: number): void {
    Atomics.store(this.#slots, index * 3, SKIPPED);
  }

  /** Puts record `index` in the ring; `full` when it does not fit now (`wait`, then try again). A record larger than half the ring is skipped. */
  place(index: number, bytes: Uint8Array): 'placed' | 'skipped' | 'full' {
    if (bytes.length > this.#ring.length / 2) {
      this.skip(index);
      return 'skipped';
    }
    const start = this.#room(bytes.length);
    if (start === undefined) return 'full';
    this.#ring.set(bytes, start);
    this.#slots[index * 3 + 1] = start;
    this.#slots[index * 3 + 2] = bytes.length;
    Atomics.store(this.#slots, index * 3, READY);
    this.#placed.push({ index, start });
    this.#head = start + bytes.length;
    return 'placed';
  }

  /** Waits until the loader takes a record after `seen` (at once if it has) or stops; 100 ms at most, which only bounds a missed wake. */
  wait(seen: number): void {
    Atomics.wait(this.#control, TAKEN, seen, 100);
  }

  /** Forgets the records the loader can no longer take. */
  #release(): void {
    const taken = this.taken;
    while (this.#placed.length > 0 && this.#placed[0]!.index < taken) this.#placed.shift();
    if (this.#placed.length === 0) this.#head = 0;
  }

  /** Where `length` bytes fit without touching a record the loader may still take; undefined when they do not. */
  #room(length: number): number | undefined {
    this.#release();
    const oldest = this.#placed[0]?.start;
    if (oldest === undefined) return length <= this.#ring.length ? 0 : undefined;
    if (this.#head > oldest) {
      if (this.#ring.length - this.#head >= length) return this.#head;
      return oldest > length ? 0 : undefined;
    }
    return oldest - this.#head > length ? this.#head : undefined;
  }
}

/** Above this, a record's recorded size is not believed (a damaged file): it is inflated in the usual chunks. */
const MAX_ONE_CHUNK = 64 * 1024 * 1024;

/**
 * A gzip file inflated into one buffer of the size its trailer records (its last four bytes, modulo 2^32), rather than in
 * 16 KiB chunks joined after: a record is 15–25 KB, so most took two chunks and a copy (10,000 records read in 0.74–0.76 s
 * against 0.79–0.84 s).
 */
export function inflate(bytes: Buffer): Buffer {
  const size = bytes.length >= 18 ? bytes.readUInt32LE(bytes.length - 4) : 0;
  return size > 0 && size < MAX_ONE_CHUNK ? gunzipSync(bytes, { chunkSize: size + 64 }) : gunzipSync(bytes);
}
