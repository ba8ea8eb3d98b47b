import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FrozenLockError,
  journalPath,
  OverBudgetError,
  parseLockFile,
  readLockFile,
  SyncFailedError,
  syncArticles,
  writeLockFile,
  type LockFile,
  type SyncEvent,
} from '../../src/sync/index.js';
import { FAST_POLL, startHarness, type Harness } from './sync-harness.js';

const KEYWORDS = ['best coffee grinder', 'espresso at home', 'french press guide'];

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const types = (events: SyncEvent[]) => events.map((e) => e.type);

describe('syncArticles against the emulator', () => {
  it('should create each article of a cold run exactly once and serve every output', async () => {
    const result = await h.sync(h.specs(KEYWORDS));
    expect(h.emulator.ledger.creations).toHaveLength(3);
    expect(h.emulator.ledger.duplicates()).toEqual([]);
    expect(result.totals).toMatchObject({ created: 3, finished: 3, failed: 0 });
    const lock = await readLockFile(h.lockFile);
    expect(Object.values(lock.articles).map((e) => e.status)).toEqual(['finished', 'finished', 'finished']);
    for (const article of result.articles) {
      const output = await result.readOutput(article.slug);
      expect(output?.html).toContain('<');
      expect(h.emulator.article(article.entry!.articleId!)?.output?.html).toBe(output!.html);
    }
  });

  it('should make zero requests on a second run', async () => {
    await h.sync(h.specs(KEYWORDS));
    const before = h.emulator.requests.length;
    const result = await h.sync(h.specs(KEYWORDS));
    expect(h.emulator.requests.length).toBe(before);
    expect(result.totals.requests).toBe(0);
    expect(result.articles.map((a) => a.outcome)).toEqual(['reused', 'reused', 'reused']);
  });

  it('should create exactly one article after one entry is edited, serving the old output until the new one finishes', async () => {
    const first = await h.sync(h.specs(KEYWORDS));
    const oldHtml = (await first.readOutput('espresso-at-home'))!.html;
    const edited = h.specs(KEYWORDS).map((s) => (s.slug === 'espresso-at-home' ? h.specs([s.keyword], { articleLength: 'long' })[0]! : s));

    const created = await h.sync(edited, { wait: false });
    expect(h.emulator.ledger.creations).toHaveLength(4);
    const pending = created.articles.find((a) => a.slug === 'espresso-at-home')!;
    expect(pending.outcome).toBe('pending');
    expect(pending.serve?.current).toBe(false);
    expect((await created.readOutput('espresso-at-home'))!.html).toBe(oldHtml);

    const done = await h.sync(edited);
    expect(h.emulator.ledger.creations).toHaveLength(4);
    const finished = done.articles.find((a) => a.slug === 'espresso-at-home')!;
    expect(finished.serve?.current).toBe(true);
    expect(finished.entry?.previous).toBeUndefined();
    expect((await done.readOutput('espresso-at-home'))!.html).not.toBe(oldHtml);
  });

  it('should stop a defaults edit that touches every entry at the budget, before any create', async () => {
    await h.sync(h.specs(KEYWORDS));
    const lockBefore = await readFile(h.lockFile);
    const requestsBefore = h.emulator.requests.length;
    const error = await h.sync(h.specs(KEYWORDS, { language: 'German' }), { budget: 2 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverBudgetError);
    expect((error as Error).message).toMatch(/3 new article\(s\).*budget of 2/s);
    expect((error as Error).message).toMatch(/budget: 3/);
    expect(h.emulator.ledger.creations).toHaveLength(3);
    expect(h.emulator.requests.length).toBe(requestsBefore);
    expect(await readFile(h.lockFile)).toEqual(lockBefore);
  });

  it('should never create in frozen mode, listing every slug that would be created', async () => {
    await h.sync(h.specs(KEYWORDS.slice(0, 2)));
    const lockBefore = await readFile(h.lockFile);
    const error = await h.sync(h.specs([...KEYWORDS, 'moka pot']), { frozen: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrozenLockError);
    expect((error as FrozenLockError).slugs).toEqual(['french-press-guide', 'moka-pot']);
    expect(h.emulator.ledger.creations).toHaveLength(2);
    expect(await readFile(h.lockFile)).toEqual(lockBefore);
  });

  it('should build in frozen mode when everything is in the lock file and the cache', async () => {
    await h.sync(h.specs(KEYWORDS));
    const result = await h.sync(h.specs(KEYWORDS), { frozen: true });
    expect(result.articles.every((a) => a.outcome === 'reused')).toBe(true);
  });

  it('should record failed articles and throw after the lock is consistent when onFailure is fail', async () => {
    h.emulator.setFaults({ failedArticles: { share: 1, code: 'generation_failed', message: 'writer stopped' } });
    const error = await h.sync(h.specs(KEYWORDS.slice(0, 2))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SyncFailedError);
    expect((error as SyncFailedError).result.failures.map((f) => f.slug)).toEqual(['best-coffee-grinder', 'espresso-at-home']);
    const lock = await readLockFile(h.lockFile);
    expect(lock.articles['best-coffee-grinder']).toMatchObject({ status: 'failed', error: { code: 'generation_failed' } });
    expect(lock.articles['best-coffee-grinder']!.articleId).toBeDefined();
  });

  it('should return failed articles in the result when onFailure is skip, and not re-create them on the next run', async () => {
    h.emulator.setFaults({ failedArticles: 1 });
    const result = await h.sync(h.specs(KEYWORDS.slice(0, 1)), { onFailure: 'skip' });
    expect(result.failures.map((f) => [f.slug, f.outcome])).toEqual([['best-coffee-grinder', 'failed']]);
    h.emulator.setFaults(undefined);
    const again = await h.sync(h.specs(KEYWORDS.slice(0, 1)), { onFailure: 'skip' });
    expect(again.articles[0]!.action).toBe('failed');
    expect(h.emulator.ledger.creations).toHaveLength(1);
  });

  it('should re-create a failed article when retryFailed names it', async () => {
    h.emulator.setFaults({ failedArticles: 1 });
    await h.sync(h.specs(KEYWORDS.slice(0, 1)), { onFailure: 'skip' });
    h.emulator.setFaults(undefined);
    const retried = await h.sync(h.specs(KEYWORDS.slice(0, 1)), { retryFailed: ['best-coffee-grinder'] });
    expect(retried.articles[0]).toMatchObject({ outcome: 'finished', entry: { status: 'finished', attempt: 2 } });
    expect(h.emulator.ledger.creations).toHaveLength(2);
  });

  it('should keep lock entries of articles removed from the manifest as orphans', async () => {
    await h.sync(h.specs(KEYWORDS));
    const result = await h.sync(h.specs(KEYWORDS.slice(1)));
    expect(result.orphans).toEqual(['best-coffee-grinder']);
    expect((await readLockFile(h.lockFile)).articles['best-coffee-grinder']?.status).toBe('finished');
  });

  it('should build offline from the committed lock file and cache with the service stopped', async () => {
    const specs = h.specs(KEYWORDS);
    const online = await h.sync(specs);
    const htmls = await Promise.all(KEYWORDS.map(async (_, i) => (await online.readOutput(specs[i]!.slug))!.html));
    const requestsBefore = h.emulator.requests.length;
    await h.emulator.stop();
    const offline = await syncArticles({ specs, lockFile: h.lockFile, client: h.client, frozen: true });
    expect(offline.totals.requests).toBe(0);
    expect(h.emulator.requests.length).toBe(requestsBefore);
    expect(await Promise.all(specs.map(async (s) => (await offline.readOutput(s.slug))!.html))).toEqual(htmls);
  });

  it('should fetch each output with one GET and create nothing in a fresh clone with the lock file but no cache', async () => {
    await h.sync(h.specs(KEYWORDS));
    await rm(join(h.dir, 'articles.cache'), { recursive: true });
    const before = h.emulator.requests.length;
    const result = await h.sync(h.specs(KEYWORDS));
    const made = h.emulator.requests.slice(before);
    expect(made.map((r) => r.route)).toEqual(['getArticle', 'getArticle', 'getArticle']);
    expect(result.articles.map((a) => a.outcome)).toEqual(['fetched', 'fetched', 'fetched']);
    expect(h.emulator.ledger.creations).toHaveLength(3);
    expect(await readdir(join(h.dir, 'articles.cache', 'outputs'))).toHaveLength(3);
  });

  it('should mark a pending article the service no longer knows as failed with not_found, and not re-create it', async () => {
    await h.sync(h.specs(KEYWORDS.slice(0, 1)), { wait: false });
    h.emulator.reset();
    const result = await h.sync(h.specs(KEYWORDS.slice(0, 1)), { onFailure: 'skip' });
    expect(result.articles[0]).toMatchObject({ outcome: 'failed', error: { code: 'not_found' } });
    expect((await readLockFile(h.lockFile)).articles['best-coffee-grinder']).toMatchObject({ status: 'failed', error: { code: 'not_found' } });
    expect(h.emulator.ledger.creations).toHaveLength(0);
  });

  it('should record a create whose outcome is unknown and never create it again unasked', async () => {
    const careful = h.newClient({ idempotentCreates: false });
    h.emulator.setFaults({ routes: { createArticle: { resetsAfterProcessing: 1 } } });
    const specs = h.specs(KEYWORDS.slice(0, 1));
    const result = await syncArticles({ specs, lockFile: h.lockFile, client: careful, poll: FAST_POLL, onFailure: 'skip' });
    expect(result.articles[0]).toMatchObject({ outcome: 'unknown', error: { code: 'create_outcome_unknown' } });
    expect((await readLockFile(h.lockFile)).articles['best-coffee-grinder']?.status).toBe('unknown');
    h.emulator.setFaults(undefined);
    const again = await syncArticles({ specs, lockFile: h.lockFile, client: careful, poll: FAST_POLL, onFailure: 'skip' });
    expect(again.articles[0]!.outcome).toBe('unknown');
    expect(h.emulator.ledger.creations).toHaveLength(1);
  });

  it('should resolve an unknown create with the same idempotency key, without a second article', async () => {
    const careful = h.newClient({ idempotentCreates: false });
    h.emulator.setFaults({ routes: { createArticle: { resetsAfterProcessing: 1 } } });
    const specs = h.specs(KEYWORDS.slice(0, 1));
    await syncArticles({ specs, lockFile: h.lockFile, client: careful, poll: FAST_POLL, onFailure: 'skip' });
    h.emulator.setFaults(undefined);
    const retried = await syncArticles({ specs, lockFile: h.lockFile, client: careful, poll: FAST_POLL, retryUnknown: true });
    expect(retried.articles[0]!.outcome).toBe('finished');
    expect(h.emulator.ledger.creations).toHaveLength(1);
    expect(retried.articles[0]!.entry!.articleId).toBe(h.emulator.ledger.creations[0]!.articleId);
  });

  it('should serve the earlier article again, without a create, when an edit is reverted before the new one finishes', async () => {
    const original = h.specs(KEYWORDS.slice(0, 1));
    await h.sync(original);
    await h.sync(h.specs(KEYWORDS.slice(0, 1), { includeFaq: true }), { wait: false });
    const reverted = await h.sync(original);
    expect(reverted.articles[0]).toMatchObject({ action: 'restore', outcome: 'restored', serve: { current: true } });
    expect(h.emulator.ledger.creations).toHaveLength(2);
  });

  it('should fetch a damaged cache file again with one GET when its output is read', async () => {
    const result = await h.sync(h.specs(KEYWORDS.slice(0, 1)));
    const file = result.cache.outputFile(result.articles[0]!.serve!.output);
    const html = (await result.readOutput('best-coffee-grinder'))!.html;
    await writeFile(file, '{"html":"<p>tampered</p>","polishedHtml":null,"updatedAt":1}\n');
    const before = h.emulator.requests.length;
    const again = await h.sync(h.specs(KEYWORDS.slice(0, 1)));
    expect((await again.readOutput('best-coffee-grinder'))!.html).toBe(html);
    expect(h.emulator.requests.slice(before).map((r) => r.route)).toEqual(['getArticle']);
    expect(h.events.some((e) => e.type === 'warning' && e.message.includes(file))).toBe(true);
  });

  it('should stop on abort with every created id in a consistent lock file, and resume without a duplicate', async () => {
    h.emulator.setTiming({ writingMs: 60_000 });
    const controller = new AbortController();
    const specs = h.specs(KEYWORDS);
    const run = h.sync(specs, {
      concurrency: 1,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'created') controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'aborted' });
    const lock = await readLockFile(h.lockFile);
    const ids = Object.values(lock.articles).map((e) => e.articleId);
    expect(ids).toEqual(h.emulator.ledger.creations.map((c) => c.articleId));
    h.emulator.setTiming('instant');
    await h.sync(specs);
    expect(h.emulator.ledger.creations).toHaveLength(3);
    expect(h.emulator.ledger.duplicates()).toEqual([]);
  });

  it('should emit plan, creating, created, finished and done events, and record each id before any poll', async () => {
    await h.sync(h.specs(KEYWORDS.slice(0, 1)));
    expect(types(h.events).filter((t) => t !== 'progress')).toEqual(['plan', 'creating', 'created', 'finished', 'done']);
    const created = h.emulator.requests.findIndex((r) => r.route === 'createArticle');
    const firstPoll = h.emulator.requests.findIndex((r) => r.route === 'getArticle');
    expect(firstPoll).toBeGreaterThan(created);
  });

  it('should emit creating for each article before its create request is sent, with its intent already in the lock file', async () => {
    const seen: { slug: string; createsSent: number; status: string | undefined }[] = [];
    await h.sync(h.specs(KEYWORDS), {
      concurrency: 1,
      onEvent: (event) => {
        if (event.type !== 'creating') return;
        // The intent may be in the lock file's journal (written in the create phase, folded at the end): read both, as every reader does.
        const journal = journalPath(h.lockFile);
        const lock = parseLockFile(existsSync(h.lockFile) ? readFileSync(h.lockFile, 'utf8') : undefined, h.lockFile, existsSync(journal) ? readFileSync(journal, 'utf8') : undefined);
        seen.push({ slug: event.slug, createsSent: h.emulator.requests.filter((r) => r.route === 'createArticle').length, status: lock.articles[event.slug]?.status });
      },
    });
    expect(seen).toEqual([
      { slug: 'best-coffee-grinder', createsSent: 0, status: 'unknown' },
      { slug: 'espresso-at-home', createsSent: 1, status: 'unknown' },
      { slug: 'french-press-guide', createsSent: 2, status: 'unknown' },
    ]);
  });

  it('should refuse a corrupt lock file before any request and leave it untouched', async () => {
    await writeFile(h.lockFile, '{"version":1,"articles":{');
    await expect(h.sync(h.specs(KEYWORDS))).rejects.toMatchObject({ code: 'corrupt_lock' });
    expect(await readFile(h.lockFile, 'utf8')).toBe('{"version":1,"articles":{');
    expect(h.emulator.requests).toHaveLength(0);
  });

  it('should refuse two specs with the same slug', async () => {
    const specs = [...h.specs(['a b']), ...h.specs(['a b'])];
    await expect(h.sync(specs)).rejects.toMatchObject({ code: 'invalid_spec' });
  });

  it('should write no secret into the lock file or the cache', async () => {
    await h.sync(h.specs(KEYWORDS.slice(0, 1), { webhookUrl: 'https://hooks.example.com/in?token=whsec_topsecret' }));
    const lockText = await readFile(h.lockFile, 'utf8');
    expect(lockText).not.toContain(h.emulator.apiKey);
    expect(lockText).not.toContain('whsec_topsecret');
  });

  it('should keep a lock entry written by hand with no recorded request and still plan it', async () => {
    await h.sync(h.specs(KEYWORDS.slice(0, 1)));
    const lock = await readLockFile(h.lockFile);
    delete lock.articles['best-coffee-grinder']!.request;
    await writeLockFile(h.lockFile, lock);
    const result = await h.sync(h.specs(KEYWORDS.slice(0, 1)));
    expect(result.articles[0]!.outcome).toBe('reused');
  });
});
