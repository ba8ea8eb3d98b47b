// The shared ring of a read-ahead (processed-store.ts, `readAhead`): a thread of its own (read-ahead-worker.ts) reads and
// inflates the records in the order the loader will ask for them, takes each one's long text (the article's HTML) out of its
// JSON, and writes both into shared memory; the loader's thread takes them from there, with no system call and no message.
// Both sides are here, so the layout is declared once.
//
// The loader's thread waits on the ring only for a record the thread is about to place (WAIT_AHEAD, WAIT_MS): one the thread
// has not nearly reached (or could not read) is read as before, and the thread then skips ahead past it. The thread waits
// when the ring is full, until the loader takes a record.
import { gunzipSync } from 'node:zlib';

/** Bytes of heads, and of texts, the ring holds at once (a record's head is 2–10 KB, its text 10–30 KB, twice that in two bytes a letter). */
const HEAD_BYTES = 6 * 1024 * 1024;
const TEXT_BYTES = 16 * 1024 * 1024;

/** Numbers a record has in `slots`: state, head offset, head length, text offset, text length (bytes), flags. */
const SLOT = 6;
/** A record's state: not read yet (0), ready, or skipped. */
const READY = 1;
/** Missing, unreadable, damaged or larger than half the ring: the loader reads it itself. */
const SKIPPED = 2;
/** Flags: the head, or the text, in two bytes a letter (UTF-16) rather than one (Latin-1); the record has a text taken out. */
const HEAD_WIDE = 1;
const TEXT_WIDE = 2;
const HAS_TEXT = 4;

/**
 * `control`: the index below which the loader takes no more records (the thread may reuse their bytes), the stop flag, and
 * the record the thread is reading.
 */
const TAKEN = 0;
const STOPPED = 1;
const READING = 2;

/**
 * When the record asked for is one of the next few the thread reads, the loader waits for it (at most WAIT_MS) rather than
 * reading it too: reading it itself moved the thread on past it, and a thread just behind the loader then lost every race
 * and read for nothing (a profiled cold 10,000-article load() spent 0.79 s reading records itself, 0.02 s with the wait).
 * A record is 0.1–0.2 ms of the thread's work.
 */
const WAIT_AHEAD = 16;
const WAIT_MS = 20;

/**
 * The loader takes the texts of up to this many ready records at once, decoded as one string that each text is a slice of: a
 * string that large is made outside V8's young generation, so the texts (the HTML the data store keeps) are never copied by its
 * scavenges. Decoded one by one, each was copied twice, most of a cold load()'s garbage collection.
 */
const RUN_RECORDS = 64;

/** The memory both threads share: the heads and the texts each in a ring of their own, so a run's texts lie end to end. */
export interface RingMemory {
  control: SharedArrayBuffer;
  slots: SharedArrayBuffer;
  heads: SharedArrayBuffer;
  texts: SharedArrayBuffer;
}

/** The shared memory of a read-ahead of `records` records. */
export function ringMemory(records: number, bytes: { heads?: number; texts?: number } = {}): RingMemory {
  const control = new SharedArrayBuffer(12);
  // No record is being read until the thread starts: the loader reads for itself meanwhile, and does not wait.
  new Int32Array(control)[READING] = -1;
  return {
    control,
    slots: new SharedArrayBuffer(Math.max(1, records) * SLOT * 4),
    heads: new SharedArrayBuffer(bytes.heads ?? HEAD_BYTES),
    texts: new SharedArrayBuffer(bytes.texts ?? TEXT_BYTES),
  };
}

/**
 * A record as the ring carries it: its JSON `head`, and the `text` of one long string member taken out of it (see
 * `takeOutText`), or undefined when none was.
 */
export interface RingRecord {
  head: string;
  text: string | undefined;
}

/** The loader's side: a record, when the thread has it ready. */
export class RingReader {
  readonly #index: Map<string, number>;
  readonly #control: Int32Array;
  readonly #slots: Int32Array;
  readonly #memory: RingMemory;
  /** Records decoded with an earlier one (a run), until they are asked for. */
  readonly #decoded = new Map<number, RingRecord>();
  #taken = 0;
  /** How many records were handed over. */
  #used = 0;
  readonly #waitMs: number;

  /** `waitMs`: the longest wait for a record the thread is about to place (WAIT_MS; a test on a busy machine gives more). */
  constructor(files: readonly string[], memory: RingMemory, { waitMs = WAIT_MS }: { waitMs?: number } = {}) {
    this.#waitMs = waitMs;
    this.#index = new Map(files.map((file, i) => [file, i]));
    this.#control = new Int32Array(memory.control);
    this.#slots = new Int32Array(memory.slots);
    this.#memory = memory;
  }

  /**
   * The record of `file` when the ring has it; undefined when it has not (the caller reads the file itself). Either way the
   * thread may then reuse the bytes of this record and of every one before it.
   */
  take(file: string): RingRecord | undefined {
    const i = this.#index.get(file);
    if (i === undefined) return undefined;
    const decoded = this.#decoded.get(i);
    if (decoded !== undefined) {
      this.#decoded.delete(i);
      this.#used += 1;
      return decoded;
    }
    if (i < this.#taken) return undefined;
    let last = i;
    try {
      if (this.#ready(i) !== READY) return undefined;
      const end = this.#runEnd(i);
      last = end.last;
      const run = this.#decode(i, end);
      for (let k = 1; k < run.length; k++) this.#decoded.set(i + k, run[k]!);
      this.#used += 1;
      return run[0];
    } finally {
      this.#taken = last + 1;
      Atomics.store(this.#control, TAKEN, this.#taken);
      Atomics.notify(this.#control, TAKEN);
    }
  }

  /** Record `i`'s state, once the thread has it when it is among the next few it reads (see WAIT_AHEAD). */
  #ready(i: number): number {
    const state = Atomics.load(this.#slots, i * SLOT);
    const reading = Atomics.load(this.#control, READING);
    if (state !== 0 || reading < 0 || reading > i || i - reading >= WAIT_AHEAD) return state;
    // The bytes of every record before this one are the thread's again, so a full ring makes room for it.
    Atomics.store(this.#control, TAKEN, i);
    Atomics.notify(this.#control, TAKEN);
    Atomics.wait(this.#slots, i * SLOT, 0, this.#waitMs);
    return Atomics.load(this.#slots, i * SLOT);
  }

  /** The thread has ended (done, failed or stopped): no record is waited for from now on. */
  threadEnded(): void {
    Atomics.store(this.#control, READING, -1);
  }

  /** Stops the thread; returns how many records were handed over. */
  stop(): number {
    Atomics.store(this.#control, STOPPED, 1);
    Atomics.notify(this.#control, TAKEN);
    this.#decoded.clear();
    return this.#used;
  }

  #slot(k: number, field: number): number {
    return this.#slots[k * SLOT + field]!;
  }

  /** The last record of the run from `first` (ready, their texts end to end and of one width, at most RUN_RECORDS), and where its texts end. */
  #runEnd(first: number): { last: number; end: number } {
    const records = this.#slots.length / SLOT;
    const wide = this.#slot(first, 5) & TEXT_WIDE;
    let last = first;
    let end = this.#slot(first, 3) + this.#slot(first, 4);
    while (last + 1 < records && last + 1 - first < RUN_RECORDS && Atomics.load(this.#slots, (last + 1) * SLOT) === READY) {
      const next = last + 1;
      if ((this.#slot(next, 5) & HAS_TEXT) !== 0 && ((this.#slot(next, 5) & TEXT_WIDE) !== wide || this.#slot(next, 3) !== end)) break;
      end += this.#slot(next, 4);
      last = next;
    }
    return { last, end };
  }

  /** Records `first` to `last`: each head on its own, and their texts as slices of one string. */
  #decode(first: number, { last, end }: { last: number; end: number }): RingRecord[] {
    const { heads, texts } = this.#memory;
    const wide = (this.#slot(first, 5) & TEXT_WIDE) !== 0;
    const start = this.#slot(first, 3);
    const all = end <= start ? '' : Buffer.from(texts, start, end - start).toString(wide ? 'utf16le' : 'latin1');
    const run: RingRecord[] = [];
    let at = 0;
    for (let k = first; k <= last; k++) {
      const head = Buffer.from(heads, this.#slot(k, 1), this.#slot(k, 2)).toString((this.#slot(k, 5) & HEAD_WIDE) !== 0 ? 'utf16le' : 'latin1');
      let text: string | undefined;
      if ((this.#slot(k, 5) & HAS_TEXT) !== 0) {
        const letters = this.#slot(k, 4) / (wide ? 2 : 1);
        text = all.slice(at, at + letters);
        at += letters;
      }
      run.push({ head, text });
    }
    return run;
  }
}

/** One of the ring's two parts (heads, texts): where each record's bytes start in it, oldest first, and where the next go. */
class RingPart {
  readonly bytes: Buffer;
  readonly #placed: { index: number; start: number }[] = [];
  #head = 0;

  constructor(memory: SharedArrayBuffer) {
    this.bytes = Buffer.from(memory);
  }

  /** Where `length` bytes (at an even offset when `even`) fit without touching a record from `taken` on; undefined when they do not. */
  room(length: number, taken: number, even: boolean): number | undefined {
    // Nothing to write (a record without a text) fits anywhere, and holds no bytes.
    if (length === 0) return this.#head;
    while (this.#placed.length > 0 && this.#placed[0]!.index < taken) this.#placed.shift();
    if (this.#placed.length === 0) this.#head = 0;
    const next = even ? this.#head + (this.#head % 2) : this.#head;
    const oldest = this.#placed[0]?.start;
    if (oldest === undefined) return length <= this.bytes.length ? 0 : undefined;
    if (next > oldest) {
      if (this.bytes.length - next >= length) return next;
      return oldest > length ? 0 : undefined;
    }
    return oldest - next > length ? next : undefined;
  }

  /** `length` bytes of record `index` written at `start`. */
  placed(index: number, start: number, length: number): void {
    if (length === 0) return;
    this.#placed.push({ index, start });
    this.#head = start + length;
  }
}

/** Letters beyond Latin-1: the string is written in two bytes a letter. */
const WIDE = /[^\x00-\xff]/;

/** The thread's side: places each record in the ring, where it fits without touching a record the loader may still take. */
export class RingWriter {
  readonly #control: Int32Array;
  readonly #slots: Int32Array;
  readonly #heads: RingPart;
  readonly #texts: RingPart;

  constructor(memory: RingMemory) {
    this.#control = new Int32Array(memory.control);
    this.#slots = new Int32Array(memory.slots);
    this.#heads = new RingPart(memory.heads);
    this.#texts = new RingPart(memory.texts);
  }

  get stopped(): boolean {
    return Atomics.load(this.#control, STOPPED) === 1;
  }

  /** The first record the loader may still take: records before it need not be read. */
  get taken(): number {
    return Atomics.load(this.#control, TAKEN);
  }

  /** Record `index` is the one being read now. */
  reading(index: number): void {
    Atomics.store(this.#control, READING, index);
  }

  skip(index: number): void {
    Atomics.store(this.#slots, index * SLOT, SKIPPED);
    Atomics.notify(this.#slots, index * SLOT);
  }

  /** Puts record `index` in the ring; `full` when it does not fit now (`wait`, then try again). A record larger than half a part is skipped. */
  place(index: number, record: RingRecord): 'placed' | 'skipped' | 'full' {
    const text = record.text ?? '';
    const headWide = WIDE.test(record.head);
    const textWide = WIDE.test(text);
    const headBytes = record.head.length * (headWide ? 2 : 1);
    const textBytes = text.length * (textWide ? 2 : 1);
    if (headBytes > this.#heads.bytes.length / 2 || textBytes > this.#texts.bytes.length / 2) {
      this.skip(index);
      return 'skipped';
    }
    const taken = this.taken;
    const headStart = this.#heads.room(headBytes, taken, headWide);
    const textStart = this.#texts.room(textBytes, taken, textWide);
    if (headStart === undefined || textStart === undefined) return 'full';
    this.#heads.bytes.write(record.head, headStart, headBytes, headWide ? 'utf16le' : 'latin1');
    this.#texts.bytes.write(text, textStart, textBytes, textWide ? 'utf16le' : 'latin1');
    this.#heads.placed(index, headStart, headBytes);
    this.#texts.placed(index, textStart, textBytes);
    const at = index * SLOT;
    this.#slots.set([headStart, headBytes, textStart, textBytes, (headWide ? HEAD_WIDE : 0) | (textWide ? TEXT_WIDE : 0) | (record.text === undefined ? 0 : HAS_TEXT)], at + 1);
    Atomics.store(this.#slots, at, READY);
    Atomics.notify(this.#slots, at);
    return 'placed';
  }

  /** Waits until the loader takes a record after `seen` (at once if it has) or stops; 100 ms at most, which only bounds a missed wake. */
  wait(seen: number): void {
    Atomics.wait(this.#control, TAKEN, seen, 100);
  }
}

/**
 * A record's JSON with the string value of its one member named `member` taken out (left as `""`), as the ring carries it; the
 * whole JSON as the head when the text has no such member or more than one. In JSON a quote inside a string is escaped, so
 * `"member":"` unescaped is always that member's name and the start of its string value.
 */
export function takeOutText(json: string, member: string): RingRecord {
  const mark = `"${member}":"`;
  const open = json.indexOf(mark);
  if (open < 0) return { head: json, text: undefined };
  const start = open + mark.length - 1;
  let close = start;
  for (;;) {
    close = json.indexOf('"', close + 1);
    if (close < 0) return { head: json, text: undefined };
    let backslashes = 0;
    while (json.charCodeAt(close - 1 - backslashes) === 92) backslashes += 1;
    if (backslashes % 2 === 0) break;
  }
  if (json.indexOf(mark, close) >= 0) return { head: json, text: undefined };
  try {
    return { head: `${json.slice(0, start)}""${json.slice(close + 1)}`, text: JSON.parse(json.slice(start, close + 1)) as string };
  } catch {
    return { head: json, text: undefined };
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
