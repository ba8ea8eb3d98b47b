// The read-ahead's shared ring, both sides in one thread: where records go, when the ring is full, what the loader takes,
// and how a record's long text is carried apart from its JSON and handed back.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { buildPackage, REPO } from '../loader/astro-site.js';
import { RingReader, RingWriter, ringMemory, takeOutText, type RingRecord } from '../../src/sync/record-ring.js';

const files = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
const record = (head: string, text?: string): RingRecord => ({ head, text });

describe('the record ring', () => {
  it('should place records until it is full, reuse the bytes of the records taken, and hand each record over intact', () => {
    const memory = ringMemory(files.length, { heads: 1000, texts: 100 });
    const writer = new RingWriter(memory);
    const reader = new RingReader(files, memory);
    const dashes = (n: number) => '\u2014'.repeat(n);
    // 30 bytes each: Latin-1 letters take one byte, a dash two.
    expect(writer.place(0, record('{"a":0}', 'a'.repeat(30)))).toBe('placed');
    expect(writer.place(1, record('{"a":1}', dashes(15)))).toBe('placed');
    expect(writer.place(2, record('{"a":2}', dashes(15)))).toBe('placed');
    // 10 bytes of text left at the end, and record 0 still to be taken at the start.
    expect(writer.place(3, record('{"a":3}', 'd'.repeat(30)))).toBe('full');
    // Record 0 alone (the next texts are of another width): the thread may reuse its bytes, not record 1's.
    expect(reader.take('r0')).toEqual(record('{"a":0}', 'a'.repeat(30)));
    expect(writer.taken).toBe(1);
    expect(writer.place(3, record('{"a":3}', 'd'.repeat(30)))).toBe('full');
    // Records 1 and 2 go together, their texts end to end.
    expect(reader.take('r1')).toEqual(record('{"a":1}', dashes(15)));
    expect(writer.taken).toBe(3);
    expect(writer.place(3, record('{"a":3}', 'd'.repeat(30)))).toBe('placed');
    expect(reader.take('r2')).toEqual(record('{"a":2}', dashes(15)));
    expect(reader.take('r3')).toEqual(record('{"a":3}', 'd'.repeat(30)));
  });

  it('should place records without a text one after another, taking no text bytes', () => {
    const memory = ringMemory(files.length, { heads: 1000, texts: 100 });
    const writer = new RingWriter(memory);
    const reader = new RingReader(files, memory);
    for (let i = 0; i < 4; i++) expect(writer.place(i, record(`{"n":${i}}`))).toBe('placed');
    expect(writer.place(4, record('{"n":4}', 'e'.repeat(50)))).toBe('placed');
    for (let i = 0; i < 4; i++) expect(reader.take(`r${i}`)).toEqual(record(`{"n":${i}}`));
    expect(reader.take('r4')).toEqual(record('{"n":4}', 'e'.repeat(50)));
  });

  it('should hand over a run of ready records at once, each text intact, in one byte or two a letter, and records without a text', () => {
    const memory = ringMemory(files.length, { heads: 1000, texts: 1000 });
    const writer = new RingWriter(memory);
    const reader = new RingReader(files, memory);
    const placed = [
      record('{"n":0}', 'caf\u00e9 cr\u00e8me'),
      record('{"n":1}', 'plain'),
      record('{"n":"\u2014"}', undefined),
      record('{"n":3}', 'dash \u2014 and \u2026 dots'),
      record('{"n":4}', '\u304a\u8336'),
      record('{"n":5}', ''),
    ];
    for (const [i, each] of placed.entries()) expect(writer.place(i, each)).toBe('placed');
    // Record 0 takes the run of Latin-1 texts with it (0 to 2); the thread may reuse all their bytes at once.
    expect(reader.take('r0')).toEqual(placed[0]);
    expect(writer.taken).toBe(3);
    expect(reader.take('r1')).toEqual(placed[1]);
    expect(reader.take('r2')).toEqual(placed[2]);
    expect(reader.take('r3')).toEqual(placed[3]);
    expect(reader.take('r4')).toEqual(placed[4]);
    expect(reader.take('r5')).toEqual(placed[5]);
    // Each is handed over once.
    expect(reader.take('r4')).toBeUndefined();
    expect(reader.stop()).toBe(6);
  });

  it('should leave to the loader a record not yet placed, too large or skipped, and let the thread go past it', () => {
    const memory = ringMemory(files.length, { heads: 1000, texts: 100 });
    const writer = new RingWriter(memory);
    const reader = new RingReader(files, memory);
    // Larger than half the ring: skipped, not placed.
    expect(writer.place(0, record('{}', 'x'.repeat(51)))).toBe('skipped');
    expect(reader.take('r0')).toBeUndefined();
    writer.skip(1);
    expect(reader.take('r1')).toBeUndefined();
    // Not placed yet when asked for: the loader reads it itself, and the thread is told to start after it.
    expect(reader.take('r3')).toBeUndefined();
    expect(writer.taken).toBe(4);
    expect(writer.place(4, record('{"e":4}', 'y'.repeat(40)))).toBe('placed');
    // Asked for again, or out of order before what was taken: the loader reads it.
    expect(reader.take('r2')).toBeUndefined();
    expect(reader.take('r4')).toEqual(record('{"e":4}', 'y'.repeat(40)));
    expect(reader.take('r4')).toBeUndefined();
    expect(reader.take('unknown')).toBeUndefined();
    expect(reader.stop()).toBe(1);
    expect(writer.stopped).toBe(true);
  });
});

describe('taking a record\u2019s text out of its JSON', () => {
  const putBack = (taken: RingRecord): unknown => {
    const value = JSON.parse(taken.head) as { value: { article: { html: string } } };
    if (taken.text !== undefined) {
      expect(value.value.article.html).toBe('');
      value.value.article.html = taken.text;
    }
    return value;
  };

  it('should give back exactly the value JSON.parse reads, whatever the text holds', () => {
    const texts = ['', 'plain', '<a href="x">"quoted"</a>', 'ends with a backslash \\', 'two \\\\" and \\"', '"html":"inside"', 'caf\u00e9 \u2014 \u304a\u8336 \ud83d\ude00', '\n\t\u0000'];
    for (const html of texts) {
      const json = JSON.stringify({ slug: 'a', key: 'k', value: { article: { html, title: 't', warnings: ['"html":"x"'] }, edit: null } });
      const taken = takeOutText(json, 'html');
      expect(taken.text, JSON.stringify(html)).toBe(html);
      expect(putBack(taken)).toEqual(JSON.parse(json));
    }
  });

  it('should leave the JSON whole when the member is missing, named twice, or not a string', () => {
    const missing = JSON.stringify({ value: { article: { title: 't' } } });
    const twice = JSON.stringify({ value: { article: { html: 'a' }, other: { html: 'b' } } });
    const notText = JSON.stringify({ value: { article: { html: 3 } } });
    for (const json of [missing, twice, notText]) expect(takeOutText(json, 'html')).toEqual({ head: json, text: undefined });
  });
});

describe('the ring across two threads', () => {
  it('should wait for a record the thread is about to place, rather than read it too', async () => {
    await buildPackage();
    const ring = pathToFileURL(join(REPO, 'dist/sync/record-ring.js')).href;
    const { RingReader: Reader, ringMemory: memoryOf } = (await import(ring)) as typeof import('../../src/sync/record-ring.js');
    const memory = memoryOf(files.length);
    // The thread says it reads record 1, then places it only once the loader, waiting for it, has released record 0.
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(workerData.ring).then(({ RingWriter }) => {
        const writer = new RingWriter(workerData.memory);
        writer.reading(1);
        parentPort.postMessage('reading');
        Atomics.wait(new Int32Array(workerData.memory.control), 0, 0);
        writer.place(1, { head: '{"n":1}', text: 'placed while the loader waited' });
      });`;
    const thread = new Worker(code, { eval: true, workerData: { ring, memory } });
    try {
      await new Promise((resolve) => thread.once('message', resolve));
      // A bound far above any wake-up: the test reads the event (the placement), not a time.
      const reader = new Reader(files, memory, { waitMs: 60_000 });
      expect(reader.take('r1')).toEqual(record('{"n":1}', 'placed while the loader waited'));
    } finally {
      await thread.terminate();
    }
  }, 120_000);
});
