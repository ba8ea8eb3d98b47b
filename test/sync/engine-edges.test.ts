import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pruneArticles, readLockFile, SyncFailedError, syncArticles, verifyArticles, writeLockFile } from '../../src/sync/index.js';
import { FAST_POLL, startHarness, type Harness } from './sync-harness.js';

const KEYWORDS = ['grinder burrs', 'kettle spout', 'scale accuracy'];

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('syncArticles edge cases', () => {
  it('should keep the ids of articles still writing at the timeout and report them as pending', async () => {
    h = await startHarness({ timing: { writingMs: 60_000 } });
    const error = await h.sync(h.specs(KEYWORDS.slice(0, 2)), { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncFailedError);
    const failures = (error as SyncFailedError).result.failures;
    expect(failures.map((f) => [f.outcome, f.error?.code])).toEqual([
      ['pending', 'timeout'],
      ['pending', 'timeout'],
    ]);
    const lock = await readLockFile(h.lockFile);
    expect(Object.values(lock.articles).map((e) => [e.status, e.articleId])).toEqual(
      h.emulator.ledger.creations.map((c) => ['pending', c.articleId]),
    );
  });

  it('should fail, and neither cache nor record, articles whose ids answer with another keyword', async () => {
    h = await startHarness();
    const specs = h.specs(KEYWORDS.slice(0, 2));
    await h.sync(specs, { wait: false });
    const lock = await readLockFile(h.lockFile);
    const [a, b] = specs.map((spec) => lock.articles[spec.slug]!);
    [a!.articleId, b!.articleId] = [b!.articleId, a!.articleId];
    await writeLockFile(h.lockFile, lock);
    const before = await readFile(h.lockFile);
    const result = await h.sync(specs, { onFailure: 'skip' });
    expect(result.articles.map((x) => [x.outcome, x.error?.code])).toEqual([
      ['failed', 'invalid_response'],
      ['failed', 'invalid_response'],
    ]);
    expect(result.articles[0]!.error!.message).toContain(JSON.stringify(KEYWORDS[1]));
    expect(await readFile(h.lockFile)).toEqual(before);
    expect(await readdir(join(h.dir, 'articles.cache', 'outputs')).catch(() => [])).toEqual([]);
  });

  it('should stop creating when the account runs out of words, leave no entry for the refused create and throw the service error', async () => {
    h = await startHarness({ accounts: [{ apiKey: 'small-account-key', name: 'small', words: 10 }] });
    const error = await h.sync(h.specs(KEYWORDS), { concurrency: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'insufficient_credits' });
    expect(JSON.stringify(error)).not.toContain('small-account-key');
    // Nothing was billed for the refused create, and the others were not attempted.
    expect(h.emulator.requests.filter((r) => r.route === 'createArticle')).toHaveLength(1);
    expect((await readLockFile(h.lockFile)).articles).toEqual({});
  });

  it('should fail a run with a wrong API key before recording anything', async () => {
    h = await startHarness();
    const wrong = h.newClient({ apiKey: 'not-the-key' });
    const error = await syncArticles({ specs: h.specs(KEYWORDS), lockFile: h.lockFile, client: wrong, poll: FAST_POLL }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unauthorized' });
    expect((await readLockFile(h.lockFile)).articles).toEqual({});
    expect(h.emulator.ledger.creations).toHaveLength(0);
  });

  it('should fetch a damaged output during the sync when verifyCache is on', async () => {
    h = await startHarness();
    const first = await h.sync(h.specs(KEYWORDS.slice(0, 1)));
    await writeFile(first.cache.outputFile(first.articles[0]!.serve!.output), 'damaged');
    const result = await h.sync(h.specs(KEYWORDS.slice(0, 1)), { verifyCache: true });
    expect(result.articles[0]!.outcome).toBe('fetched');
    expect(h.emulator.ledger.creations).toHaveLength(1);
  });

  it('should report missing outputs in verify, and nothing once the cache is complete', async () => {
    h = await startHarness();
    const result = await h.sync(h.specs(KEYWORDS));
    expect((await verifyArticles(h.dir)).problems).toEqual([]);
    await writeFile(result.cache.outputFile(result.articles[1]!.serve!.output), 'x');
    const { problems } = await verifyArticles(h.lockFile);
    expect(problems.map((p) => [p.code, p.slug])).toEqual([
      ['hash_mismatch', undefined],
      ['missing_output', 'kettle-spout'],
    ]);
  });

  it('should prune orphaned entries and their outputs only when asked, and only what is unreferenced', async () => {
    h = await startHarness();
    await h.sync(h.specs(KEYWORDS));
    const kept = h.specs(KEYWORDS.slice(1));
    const lockBefore = await readFile(h.lockFile, 'utf8');
    const dry = await pruneArticles({ specs: kept, lockFile: h.lockFile, dryRun: true });
    expect(dry.orphans).toEqual(['grinder-burrs']);
    expect(dry.files).toHaveLength(1);
    expect(await readFile(h.lockFile, 'utf8')).toBe(lockBefore);
    const done = await pruneArticles({ specs: kept, lockFile: h.lockFile });
    expect(done).toEqual(dry);
    expect(Object.keys((await readLockFile(h.lockFile)).articles)).toEqual(['kettle-spout', 'scale-accuracy']);
    expect(await readdir(join(h.dir, 'articles.cache', 'outputs'))).toHaveLength(2);
    const again = await h.sync(kept);
    expect(again.articles.map((a) => a.outcome)).toEqual(['reused', 'reused']);
  });
});
