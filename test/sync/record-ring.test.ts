// The read-ahead's shared ring, both sides in one thread: where records go, when the ring is full, and what the loader takes.
import { describe, expect, it } from 'vitest';
import { RingReader, RingWriter, ringMemory } from '../../src/sync/record-ring.js';

const files = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
const bytes = (fill: number, length: number) => new Uint8Array(length).fill(fill);
const text = (reader: RingReader, file: string) => reader.take(file, (view) => [...view].join(','));

describe('the record ring', () => {
  it('should place records until it is full, reuse the bytes of the records taken, and hand each record over intact', () => {
    const memory = ringMemory(files.length, 100);
    const writer = new RingWriter(memory);
    const reader = new RingReader(files, memory);
    expect(writer.place(0, bytes(1, 30))).toBe('placed');
    expect(writer.place(1, bytes(2, 30))).toBe('placed');
    expect(writer.place(2, bytes(3, 30))).toBe('placed');
    // 10 bytes left at the end, and record 0 still to be taken at the start.
    expect(writer.place(3, bytes(4, 30))).toBe('full');
    expect(text(reader, 'r0')).toBe(Array(30).fill(1).join(','));
    expect(writer.taken).toBe(1);
    // Record 1 starts at byte 30: 30 bytes at the start would touch it.
    expect(writer.place(3, bytes(4, 30))).toBe('full');
    expect(text(reader, 'r1')).toBe(Array(30).fill(2).join(','));
    expect(writer.place(3, bytes(4, 30))).toBe('placed');
    expect(text(reader, 'r2')).toBe(Array(30).fill(3).join(','));
    expect(text(reader, 'r3')).toBe(Array(30).fill(4).join(','));
  });

  it('should leave to the loader a record not yet placed, too large or skipped, and let the thread go past it', () => {
    const memory = ringMemory(files.length, 100);
    const writer = new RingWriter(memory);
    const reader = new RingReader(files, memory);
    // Larger than half the ring: skipped, not placed.
    expect(writer.place(0, bytes(1, 51))).toBe('skipped');
    expect(text(reader, 'r0')).toBeUndefined();
    writer.skip(1);
    expect(text(reader, 'r1')).toBeUndefined();
    // Not placed yet when asked for: the loader reads it itself, and the thread is told to start after it.
    expect(text(reader, 'r3')).toBeUndefined();
    expect(writer.taken).toBe(4);
    expect(writer.place(4, bytes(5, 40))).toBe('placed');
    // Asked for again, or out of order before what was taken: the loader reads it.
    expect(text(reader, 'r2')).toBeUndefined();
    expect(text(reader, 'r4')).toBe(Array(40).fill(5).join(','));
    expect(text(reader, 'r4')).toBeUndefined();
    expect(text(reader, 'unknown')).toBeUndefined();
    expect(reader.stop()).toBe(1);
    expect(writer.stopped).toBe(true);
  });
});
