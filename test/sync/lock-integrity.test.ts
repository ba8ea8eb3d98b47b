// The lock file is evidence: a tampered hash, a slug given twice or swapped outputs stop everything, and verify says which.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CorruptLockError,
  inspectLockFile,
  parseLockFile,
  planSync,
  readLockState,
  requestHash,
  verifyArticles,
  type LockFile,
} from '../../src/sync/index.js';
import { duplicateKeyProblems, hashesApart } from '../../src/sync/lock-integrity.js';
import { startHarness, type Harness } from './sync-harness.js';

const KEYWORDS = ['lock integrity one', 'lock integrity two', 'lock integrity three'];

async function errorOf(promise: Promise<unknown>): Promise<CorruptLockError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CorruptLockError);
  return error as CorruptLockError;
}

describe('lock file integrity', () => {
  let h: Harness;
  let finished: string;

  beforeEach(async () => {
    h = await startHarness();
    await h.sync(h.specs(KEYWORDS));
    finished = await readFile(h.lockFile, 'utf8');
  });

  afterEach(async () => {
    await h.close();
  });

  /** Rewrites the lock file with `edit`, returns its bytes, and counts the requests the emulator saw from then on. */
  async function tamper(edit: (text: string) => string): Promise<{ bytes: string; requestsBefore: number }> {
    const bytes = edit(finished);
    expect(bytes).not.toBe(finished);
    await writeFile(h.lockFile, bytes);
    return { bytes, requestsBefore: h.emulator.requests.length };
  }

  it('should stop a sync with request_hash_mismatch when one hex digit of a hash changed, creating and rewriting nothing', async () => {
    const lock = JSON.parse(finished) as LockFile;
    const hash = lock.articles['lock-integrity-two']!.hash;
    const changed = `${hash.slice(0, -1)}${hash.endsWith('0') ? '1' : '0'}`;
    const { bytes, requestsBefore } = await tamper((text) => text.replace(hash, changed));
    const error = await errorOf(h.sync(h.specs(KEYWORDS)));
    expect(error.code).toBe('corrupt_lock');
    expect(error.problems).toEqual([expect.objectContaining({ code: 'request_hash_mismatch', slug: 'lock-integrity-two' })]);
    expect(error.message).toContain('"lock-integrity-two"');
    expect(error.message).toContain('git checkout');
    // Both hashes share their first 63 digits: the message shows the last one of each, not two equal heads.
    expect(error.message).toContain(`its hash ${changed.slice(0, 19)}…${changed.slice(-1)} is not the hash of its recorded keyword and request (${hash.slice(0, 19)}…${hash.slice(-1)}; the two differ from hex digit 64 on)`);
    expect(h.emulator.requests.length).toBe(requestsBefore);
    expect(h.emulator.ledger.totals.creations).toBe(KEYWORDS.length);
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
  });

  it('should take a changed request (hash and request changed together) as a change, not as tampering', async () => {
    const specs = h.specs(KEYWORDS, { articleLength: 'short' });
    const result = await h.sync(specs, { budget: 3 });
    expect(result.totals.created).toBe(3);
    expect((await inspectLockFile(h.lockFile)).problems).toEqual([]);
  });

  it('should refuse a recorded request that names another keyword than the entry', async () => {
    await tamper((text) => text.replace('"targetKeyword": "lock integrity one"', '"targetKeyword": "lock integrity eleven"'));
    const error = await errorOf(readLockState(h.lockFile));
    expect(error.problems.map((p) => [p.code, p.slug])).toEqual([['request_hash_mismatch', 'lock-integrity-one']]);
  });

  it('should name the slug and the line of an entry given twice, instead of silently keeping the last one', async () => {
    const lock = JSON.parse(finished) as LockFile;
    const entry = JSON.stringify(lock.articles['lock-integrity-one'], null, 2).replace(/\n/g, '\n    ');
    const { bytes } = await tamper((text) => text.replace('"articles": {\n', `"articles": {\n    "lock-integrity-one": ${entry},\n`));
    const error = await errorOf(h.sync(h.specs(KEYWORDS)));
    const problem = error.problems.find((p) => p.code === 'duplicate_key');
    expect(problem).toMatchObject({ slug: 'lock-integrity-one' });
    const secondLine = bytes.split('\n').findIndex((line, index) => index > 3 && line.startsWith('    "lock-integrity-one"')) + 1;
    expect(problem!.line).toBe(secondLine);
    expect(error.message).toContain(`line ${secondLine}`);
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
  });

  it('should name a field given twice inside one entry', () => {
    const text = '{\n  "version": 1,\n  "articles": {\n    "a": {\n      "keyword": "a",\n      "keyword": "b"\n    }\n  }\n}\n';
    expect(duplicateKeyProblems(text, JSON.parse(text))).toEqual([expect.objectContaining({ code: 'duplicate_key', slug: 'a', line: 6 })]);
    expect(duplicateKeyProblems(finished, JSON.parse(finished))).toEqual([]);
  });

  it('should not mistake a string value that ends like a key, or an escaped quote, for a duplicate', () => {
    const text = '{"a": "x\\":", "b": {"\\"a": 1, "a": 2}, "c": ["a", "a"]}';
    expect(duplicateKeyProblems(text, JSON.parse(text))).toEqual([]);
  });

  it('should stop the build with output_mismatch when two entries swap their outputs, and verify should name both', async () => {
    const lock = JSON.parse(finished) as LockFile;
    const one = lock.articles['lock-integrity-one']!.output!;
    const two = lock.articles['lock-integrity-two']!.output!;
    const { bytes, requestsBefore } = await tamper((text) => text.replace(one, 'SWAP').replace(two, one).replace('SWAP', two));
    const result = await h.sync(h.specs(KEYWORDS));
    const error = await errorOf(result.readOutput('lock-integrity-one'));
    expect(error.problems).toEqual([expect.objectContaining({ code: 'output_mismatch', slug: 'lock-integrity-one' })]);
    const verified = await verifyArticles(h.lockFile);
    expect(verified.problems.filter((p) => p.code === 'output_mismatch').map((p) => p.slug).sort()).toEqual(['lock-integrity-one', 'lock-integrity-two']);
    expect(h.emulator.requests.length).toBe(requestsBefore);
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
  });

  it('should keep reading a lock file and a cache written before requests and owners were recorded', async () => {
    const lock = JSON.parse(finished) as LockFile;
    for (const entry of Object.values(lock.articles)) delete entry.request;
    await writeFile(h.lockFile, `${JSON.stringify(lock, null, 2)}\n`);
    // An old cache file: the record without articleId and targetKeyword, under its own hash.
    const state = await readLockState(h.lockFile);
    const entry = state.lock.articles['lock-integrity-one']!;
    const output = (await state.cache.read(entry.output!))!;
    const { articleId: _id, targetKeyword: _keyword, ...old } = output;
    entry.output = await state.cache.put(old);
    await writeFile(h.lockFile, `${JSON.stringify(state.lock, null, 2)}\n`);
    const before = h.emulator.requests.length;
    const result = await h.sync(h.specs(KEYWORDS));
    expect(result.totals.reused).toBe(3);
    expect((await result.readOutput('lock-integrity-one'))?.html).toBe(output.html);
    expect(h.emulator.requests.length).toBe(before);
  });

  it('should report unresolved unknown creates and unreferenced cache files in verify, the latter as a warning only', async () => {
    const lock = JSON.parse(finished) as LockFile;
    const entry = lock.articles['lock-integrity-three']!;
    lock.articles['lock-integrity-three'] = { ...entry, status: 'unknown', error: { code: 'create_outcome_unknown', message: 'no id came back' } };
    delete lock.articles['lock-integrity-three']!.articleId;
    delete lock.articles['lock-integrity-three']!.output;
    await writeFile(h.lockFile, `${JSON.stringify(lock, null, 2)}\n`);
    const { problems } = await verifyArticles(h.lockFile);
    const unknown = problems.find((p) => p.code === 'unresolved_unknown');
    expect(unknown).toMatchObject({ slug: 'lock-integrity-three', severity: 'error' });
    expect(unknown!.message).toContain('adopt lock-integrity-three <articleId>');
    expect(unknown!.message).toContain('--retry-unknown=lock-integrity-three');
    expect(problems.find((p) => p.code === 'unreferenced_file')).toMatchObject({ severity: 'warning' });
  });

  it('should say the file parses but cannot be trusted, not that it is not JSON', () => {
    const lock = JSON.parse(finished) as LockFile;
    lock.articles['lock-integrity-one']!.hash = requestHash({ targetKeyword: 'something else' });
    expect(() => parseLockFile(JSON.stringify(lock), 'x.lock.json')).toThrow(/cannot be trusted \(1 integrity problem\)/);
  });

  it('should stop the planner too: planning reads the lock file the same way', async () => {
    const lock = JSON.parse(finished) as LockFile;
    const hash = lock.articles['lock-integrity-one']!.hash;
    await tamper((text) => text.replace(hash, requestHash({ targetKeyword: 'x' })));
    await errorOf(readLockState(h.lockFile).then((state) => planSync(h.specs(KEYWORDS), state.lock, new Set())));
  });

  it('should find no problem in a lock file a sync wrote', async () => {
    const { problems } = await verifyArticles(h.lockFile);
    expect(problems).toEqual([]);
    const outputs = await readdir(join(h.dir, 'articles.cache', 'outputs'));
    expect(outputs).toHaveLength(3);
    for (const name of outputs) {
      const record = JSON.parse(await readFile(join(h.dir, 'articles.cache', 'outputs', name), 'utf8')) as { articleId?: string; targetKeyword?: string };
      expect(record.articleId).toMatch(/^[0-9a-f-]{36}$/);
      expect(KEYWORDS).toContain(record.targetKeyword);
    }
    await rm(join(h.dir, 'articles.cache'), { recursive: true });
  });
});

describe('hashesApart', () => {
  const hash = (hex: string): string => `sha256:${hex.padEnd(64, '0')}`;

  it('should show two hashes that differ early by their first 12 hex digits', () => {
    expect(hashesApart(hash('ab'), hash('cd'))).toEqual(['sha256:ab0000000000…', 'sha256:cd0000000000…', '']);
  });

  it('should show where two hashes with the same first 12 digits differ, and which digit it is', () => {
    const a = hash('430c2903715d' + '1'.repeat(28) + '7f3a01be');
    const b = hash('430c2903715d' + '1'.repeat(28) + '8f3a01be');
    const [shownA, shownB, where] = hashesApart(a, b);
    expect(shownA).toBe('sha256:430c2903715d…7f3a01be…');
    expect(shownB).toBe('sha256:430c2903715d…8f3a01be…');
    expect(shownA).not.toBe(shownB);
    expect(where).toBe('; the two differ from hex digit 41 on');
  });

  it('should not put a gap between the head and a difference right after it', () => {
    expect(hashesApart(hash('430c2903715d' + 'a'), hash('430c2903715d' + 'b'))[0]).toBe('sha256:430c2903715da0000000…');
  });

  it('should return for two equal hashes, showing both heads', () => {
    expect(hashesApart(hash('ab'), hash('ab'))).toEqual(['sha256:ab0000000000…', 'sha256:ab0000000000…', '']);
  });

  it('should show a value that is not a full hash as it is', () => {
    expect(hashesApart('sha256:abc', hash('ab'))).toEqual(['sha256:abc', 'sha256:ab0000000000…', '']);
    expect(hashesApart(hash('ab'), 'sha256:(the request names another keyword)')[1]).toBe('sha256:(the request names another keyword)');
  });
});
