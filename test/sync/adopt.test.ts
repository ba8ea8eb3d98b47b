// adopt: an id found on the service's queue page attached to its lock entry, checked with one GET, never a create.
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { AdoptError, adoptArticle, readLockState, verifyArticles, type LockFile } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

const KEYWORDS = ['adopt me please', 'adopt my sibling'];

describe('adoptArticle', () => {
  let h: Harness;

  afterEach(async () => {
    await h.close();
  });

  /** A lock whose first entry's create had an unknown outcome, and the article the service made for it anyway. */
  async function unknownEntry({ settle = true } = {}): Promise<{ articleId: string; bytes: string }> {
    await h.sync(h.specs(KEYWORDS.slice(1)));
    const articleId = await h.client.createArticle(h.specs(KEYWORDS)[0]!.request);
    if (settle) await h.emulator.settle();
    const lock = JSON.parse(await readFile(h.lockFile, 'utf8')) as LockFile;
    const now = new Date().toISOString();
    lock.articles['adopt-me-please'] = {
      keyword: KEYWORDS[0]!,
      status: 'unknown',
      hash: (await import('../../src/sync/index.js')).requestHash(h.specs(KEYWORDS)[0]!.request),
      attempt: 1,
      createdAt: now,
      updatedAt: now,
      error: { code: 'create_outcome_unknown', message: 'the answer was lost' },
    };
    const bytes = `${JSON.stringify(lock, null, 2)}\n`;
    await writeFile(h.lockFile, bytes);
    return { articleId, bytes };
  }

  const adopt = (slug: string, articleId: string) =>
    adoptArticle({ specs: h.specs(KEYWORDS), manifest: 'articles.yaml', lockFile: h.lockFile, slug, articleId, client: h.client });

  it('should record a finished article found for an unknown create, cache its output, and never create', async () => {
    h = await startHarness();
    const { articleId } = await unknownEntry();
    const creations = h.emulator.ledger.totals.creations;
    const result = await adopt('adopt-me-please', articleId);
    expect(result).toMatchObject({ slug: 'adopt-me-please', articleId, status: 'finished', before: 'unknown', unchanged: false });
    expect(h.emulator.ledger.totals.creations).toBe(creations);
    const state = await readLockState(h.lockFile);
    const entry = state.lock.articles['adopt-me-please']!;
    expect(entry).toMatchObject({ status: 'finished', articleId });
    expect(entry.error).toBeUndefined();
    expect(entry.words).toBeGreaterThan(0);
    expect((await state.cache.read(entry.output!))?.articleId).toBe(articleId);
    expect((await verifyArticles(h.lockFile)).problems.filter((p) => p.severity === 'error')).toEqual([]);
    // The next build reuses it: no request, no create.
    const before = h.emulator.requests.length;
    const synced = await h.sync(h.specs(KEYWORDS));
    expect(synced.totals.reused).toBe(2);
    expect(h.emulator.requests.length).toBe(before);
  });

  it('should record an article still being written as pending, so the next sync waits for it instead of creating', async () => {
    h = await startHarness({ timing: { writingMs: 800 } });
    const { articleId } = await unknownEntry({ settle: false });
    const result = await adopt('adopt-me-please', articleId);
    expect(result.status).not.toBe('finished');
    expect((await readLockState(h.lockFile)).lock.articles['adopt-me-please']).toMatchObject({ status: 'pending', articleId });
    const creations = h.emulator.ledger.totals.creations;
    const synced = await h.sync(h.specs(KEYWORDS));
    expect(synced.articles.find((a) => a.slug === 'adopt-me-please')).toMatchObject({ action: 'wait', outcome: 'finished' });
    expect(h.emulator.ledger.totals.creations).toBe(creations);
  });

  it('should refuse an article written for another keyword, naming both, and leave the lock file byte-identical', async () => {
    h = await startHarness();
    const { bytes } = await unknownEntry();
    const other = await h.client.createArticle({ targetKeyword: 'a different keyword' });
    await h.emulator.settle();
    const error = await adopt('adopt-me-please', other).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdoptError);
    expect(error).toMatchObject({ code: 'adopt_keyword_mismatch' });
    expect((error as Error).message).toContain('"a different keyword"');
    expect((error as Error).message).toContain('"adopt me please"');
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
  });

  it('should accept the keyword in another case and spacing', async () => {
    h = await startHarness();
    await unknownEntry();
    const id = await h.client.createArticle({ targetKeyword: '  Adopt  ME please ' });
    await h.emulator.settle();
    await expect(adopt('adopt-me-please', id)).resolves.toMatchObject({ status: 'finished' });
  });

  it('should refuse an id the service does not know, a slug not in the manifest and an entry that already has another finished article, changing nothing', async () => {
    h = await startHarness();
    const { articleId, bytes } = await unknownEntry();
    await expect(adopt('adopt-me-please', '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found' });
    await expect(adopt('adopt-me', articleId)).rejects.toMatchObject({ code: 'adopt_unknown_slug', message: expect.stringContaining('Did you mean "adopt-me-please"') });
    const sibling = (await readLockState(h.lockFile)).lock.articles['adopt-my-sibling']!.articleId!;
    const requests = h.emulator.requests.length;
    await expect(adopt('adopt-my-sibling', articleId)).rejects.toMatchObject({ code: 'adopt_finished_entry' });
    // Refused before asking the service.
    expect(h.emulator.requests.length).toBe(requests);
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
    await expect(adopt('adopt-my-sibling', sibling)).resolves.toMatchObject({ unchanged: true });
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
  });

  it('should refuse a failed article and point at paying again', async () => {
    h = await startHarness();
    const { bytes } = await unknownEntry();
    h.emulator.setFaults({ failedArticles: 1 });
    const failed = await h.client.createArticle(h.specs(KEYWORDS)[0]!.request);
    await h.emulator.settle();
    const error = await adopt('adopt-me-please', failed).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'adopt_failed_article' });
    expect((error as Error).message).toContain('--retry-unknown=adopt-me-please');
    expect(await readFile(h.lockFile, 'utf8')).toBe(bytes);
  });

  it('should attach an id to a failed entry and to a keyword with no entry yet', async () => {
    h = await startHarness();
    const id = await h.client.createArticle(h.specs(KEYWORDS)[1]!.request);
    await h.emulator.settle();
    await expect(adopt('adopt-my-sibling', id)).resolves.toMatchObject({ before: undefined, status: 'finished' });
    const lock = JSON.parse(await readFile(h.lockFile, 'utf8')) as LockFile;
    lock.articles['adopt-my-sibling'] = { ...lock.articles['adopt-my-sibling']!, status: 'failed', error: { code: 'generation_failed', message: 'x' } };
    await writeFile(h.lockFile, `${JSON.stringify(lock, null, 2)}\n`);
    const again = await h.client.createArticle(h.specs(KEYWORDS)[1]!.request);
    await h.emulator.settle();
    await expect(adopt('adopt-my-sibling', again)).resolves.toMatchObject({ before: 'failed', replaced: id, status: 'finished' });
  });
});
