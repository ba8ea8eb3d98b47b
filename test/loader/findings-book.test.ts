// The findings book: each entry's findings kept beside Astro's store, under the entry's own digest, and in a build note between builds.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ownDigest, readFindingsBook } from '../../src/loader/findings-book.js';
import type { Finding } from '../../src/quality/finding.js';

const leftover: Finding = { slug: 'a', code: 'writer_leftover', severity: 'error', message: 'a "[…]" placeholder' };
const near: Finding = { slug: 'a', code: 'near_duplicate', severity: 'warning', message: '"a" and "b" are about 91% alike' };
const short: Finding = { slug: 'b', code: 'length_out_of_range', severity: 'warning', message: 'too short' };

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-findings-'));
  file = join(dir, 'notes', 'findings-articles.bin');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the findings book', () => {
  it("should give an entry's findings only for the digest they were written under", async () => {
    const book = await readFindingsBook(file);
    book.write('a', 'd1', [leftover]);
    expect(book.get('a', 'd1')).toEqual([leftover]);
    expect(book.get('a', 'd2')).toBeUndefined();
    expect(book.get('b', 'd1')).toBeUndefined();
    expect(book.get('a', undefined)).toBeUndefined();
  });

  it('should replace the near_duplicate findings only, and read them for a digest with the mark', async () => {
    const book = await readFindingsBook(file);
    book.write('a', 'd1', [leftover]);
    book.setNearDuplicates('a', [near]);
    book.setNearDuplicates('a', [near]);
    expect(book.ofEntry({ id: 'a', digest: 'd1+0123456789abcdef' })).toEqual([leftover, near]);
    book.setNearDuplicates('a', []);
    expect(book.get('a', ownDigest('d1+fedcba9876543210'))).toEqual([leftover]);
  });

  it('should keep the findings of the slugs still in the store for the next build, in their order', async () => {
    const book = await readFindingsBook(file);
    book.write('a', 'd1', [leftover, near]);
    book.write('b', 'd2', [short]);
    book.write('gone', 'd3', [short]);
    await book.save(['b', 'a']);
    const next = await readFindingsBook(file);
    expect([{ id: 'b', digest: 'd2' }, { id: 'a', digest: 'd1' }, { id: 'gone', digest: 'd3' }].map((entry) => next.ofEntry(entry))).toEqual([[short], [leftover, near], []]);
  });

  it('should read back every kind of message, an entry without findings, and leave out only an entry not of the kept shape', async () => {
    const odd: Finding = { slug: 'c', code: 'writer_leftover', severity: 'error', message: 'quotes " and \\ and a line\nbreak, ✓ and 日本語' };
    const book = await readFindingsBook(file);
    book.write('c', 'd3', [odd, { ...odd, code: 'faq_missing', severity: 'warning', message: '' }]);
    book.write('empty', 'd4', []);
    book.write('b', 'd2', [short]);
    await book.save(['c', 'empty', 'b']);
    const back = await readFindingsBook(file);
    expect(back.ofEntry({ id: 'c', digest: 'd3' })).toEqual([odd, { ...odd, code: 'faq_missing', severity: 'warning', message: '' }]);
    expect(back.ofEntry({ id: 'empty', digest: 'd4' })).toEqual([]);
    expect((await readFindingsBook(file)).get('empty', 'd4')).toEqual([]);
    // One entry's list damaged (a finding cut short): that entry is unknown, the others stand.
    const { serialize, deserialize } = await import('node:v8');
    const bytes = await readFile(file);
    const head = bytes.subarray(0, bytes.indexOf(10) + 1);
    const kept = deserialize(bytes.subarray(head.length)) as string[][];
    kept[0]!.pop();
    await writeFile(file, Buffer.concat([head, serialize(kept)]));
    const damaged = await readFindingsBook(file);
    expect(damaged.get('c', 'd3')).toBeUndefined();
    expect(damaged.get('b', 'd2')).toEqual([short]);
  });

  it('should start empty from a missing, damaged or other-version note', async () => {
    expect((await readFindingsBook(file)).ofEntry({ id: 'a', digest: 'd1' })).toEqual([]);
    const book = await readFindingsBook(file);
    book.write('a', 'd1', [leftover]);
    await book.save(['a']);
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, bytes.length - 5));
    expect((await readFindingsBook(file)).get('a', 'd1')).toBeUndefined();
    await writeFile(file, Buffer.concat([Buffer.from(bytes.toString('latin1').replace(/^astro-article-loader \S+/, 'astro-article-loader 0.0.0-other'), 'latin1')]));
    expect((await readFindingsBook(file)).get('a', 'd1')).toBeUndefined();
  });
});
