// The lock file's per-month tally (`spent`) and the monthly cap: counted at the intent, words as articles settle, one line per month, checked by the schema, absent until something is created, and a run past the cap refused before any create.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptLockError, emptyLockFile, OverMonthlyCapError, parseLockFile, readLockFile, recordedWords, serializeLockFile } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

let h: Harness;
const month = (): string => new Date().toISOString().slice(0, 7);

beforeEach(async () => {
  h = await startHarness();
});

afterEach(async () => {
  await h.close();
});

describe('the spent tally', () => {
  it('should write one line per month, in month order, after the articles, and read it back', () => {
    const lock = { ...emptyLockFile(), spent: { '2026-11': { articles: 3, words: 4100 }, '2026-10': { articles: 18, words: 27650 } } };
    const text = serializeLockFile(lock);
    expect(text).toBe('{\n  "version": 1,\n  "articles": {},\n  "spent": {\n    "2026-10": { "articles": 18, "words": 27650 },\n    "2026-11": { "articles": 3, "words": 4100 }\n  }\n}\n');
    expect(parseLockFile(text, 'articles.lock.json')).toEqual(lock);
  });

  it('should refuse a month or a count that is not one, naming where', () => {
    const bad = (spent: unknown) => () => parseLockFile(JSON.stringify({ version: 1, articles: {}, spent }), 'articles.lock.json');
    expect(bad({ '2026-13': { articles: 1, words: 0 } })).toThrow(CorruptLockError);
    expect(bad({ '2026-13': { articles: 1, words: 0 } })).toThrow('spent.2026-13 is not a month written YYYY-MM');
    expect(bad({ '2026-11': { articles: -1, words: 0 } })).toThrow(/spent\.2026-11\.articles/);
    expect(bad({ '2026-11': { articles: 1 } })).toThrow(/words is missing/);
  });

  it('should count each create at its intent and add its words as it finishes, leaving a lock without creates as it was', async () => {
    const keywords = ['tally one', 'tally two'];
    await h.sync(h.specs(keywords));
    const lock = await readLockFile(h.lockFile);
    const words = keywords.reduce((sum, k) => sum + recordedWords(lock.articles[k.replace(' ', '-')]!)!, 0);
    expect(lock.spent).toEqual({ [month()]: { articles: 2, words } });
    const before = await readFile(h.lockFile);
    await h.sync(h.specs(keywords));
    expect(await readFile(h.lockFile)).toEqual(before);
  });

  it('should count a create whose outcome is unknown (it may have been billed)', async () => {
    h.emulator.setFaults({ ambiguousCreates: 1 });
    const client = h.newClient({ idempotentCreates: false, retry: { maxAttempts: 1 } });
    await h.sync(h.specs(['tally unknown']), { client, idempotentCreates: false, onFailure: 'skip' });
    const lock = await readLockFile(h.lockFile);
    expect(lock.articles['tally-unknown']?.status).toBe('unknown');
    expect(lock.spent?.[month()]?.articles).toBe(1);
  });

  it('should take back a create the service never received, so the lock file keeps no tally for it', async () => {
    const client = h.newClient({ apiKey: 'wrong-key-for-this-test' });
    await expect(h.sync(h.specs(['tally refused']), { client })).rejects.toThrow();
    const text = await readFile(h.lockFile, 'utf8').catch(() => undefined);
    expect(text === undefined || !text.includes('"spent"')).toBe(true);
  });

  it('should not count the offline emulator\'s articles (nothing is billed)', async () => {
    await h.sync(h.specs(['tally offline']), { service: 'emulator' });
    expect((await readLockFile(h.lockFile)).spent).toBeUndefined();
  });

  it('should refuse, before any create, a run past what perMonth leaves this month', async () => {
    await h.sync(h.specs(['cap first']), { perMonth: 2 });
    const before = await readFile(h.lockFile);
    const creations = h.emulator.ledger.creations.length;
    const error = await h.sync(h.specs(['cap first', 'cap second', 'cap third']), { perMonth: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverMonthlyCapError);
    expect((error as Error).message).toContain('monthly cap (budget.perMonth: 2) leaves 1');
    expect(h.emulator.ledger.creations.length).toBe(creations);
    expect(await readFile(h.lockFile)).toEqual(before);
    await h.sync(h.specs(['cap first', 'cap second']), { perMonth: 2 });
    expect((await readLockFile(h.lockFile)).spent?.[month()]?.articles).toBe(2);
  });
});
