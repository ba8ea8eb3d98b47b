// A slug that changes with its request unchanged (a `slug:` written, entries moved into `languages:`) takes over the old
// slug's lock entry: the article already paid for is kept, not bought again, and the old slug is no orphan.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planSync, pruneArticles, readLockFile, type LockFile, type SyncSpec } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const renamed = (specs: SyncSpec[], slugs: Record<string, string>): SyncSpec[] => specs.map((spec) => ({ ...spec, slug: slugs[spec.slug] ?? spec.slug }));

describe('an entry whose slug changed and whose request did not', () => {
  it('should take over the old entry in sync: no create, the same article under the new slug, the old slug gone', async () => {
    const first = await h.sync(h.specs(['beta gadgets', 'alpha widgets']));
    const articleId = first.articles.find((a) => a.slug === 'beta-gadgets')!.entry!.articleId;
    const result = await h.sync(renamed(h.specs(['beta gadgets', 'alpha widgets']), { 'beta-gadgets': 'gadgets-beta' }));
    expect(h.emulator.ledger.creations).toHaveLength(2);
    expect(result.articles.find((a) => a.slug === 'gadgets-beta')).toMatchObject({ outcome: 'reused', entry: { articleId, status: 'finished' } });
    expect(result.orphans).toEqual([]);
    const lock = await readLockFile(h.lockFile);
    expect(Object.keys(lock.articles).sort()).toEqual(['alpha-widgets', 'gadgets-beta']);
    expect(lock.articles['gadgets-beta']).toMatchObject({ articleId, keyword: 'beta gadgets' });
    expect((await result.readOutput('gadgets-beta'))?.html).toContain('<');
  });

  it('should be kept by prune under the new slug, not removed as an orphan, so the next sync buys nothing', async () => {
    await h.sync(h.specs(['beta gadgets', 'gone keyword']));
    const specs = renamed(h.specs(['beta gadgets']), { 'beta-gadgets': 'gadgets-beta' });
    const dry = await pruneArticles({ specs, lockFile: h.lockFile, dryRun: true });
    expect(dry).toMatchObject({ orphans: ['gone-keyword'], moved: [{ from: 'beta-gadgets', to: 'gadgets-beta' }] });
    expect(dry.files).toHaveLength(1);
    const done = await pruneArticles({ specs, lockFile: h.lockFile });
    expect(done).toMatchObject({ orphans: ['gone-keyword'], moved: [{ from: 'beta-gadgets', to: 'gadgets-beta' }] });
    expect(Object.keys((await readLockFile(h.lockFile)).articles)).toEqual(['gadgets-beta']);
    const result = await h.sync(specs);
    expect(result.articles[0]).toMatchObject({ slug: 'gadgets-beta', outcome: 'reused' });
    expect(h.emulator.ledger.creations).toHaveLength(2);
  });

  it('should plan it as taken over, and each old entry for one new slug only', () => {
    const lock = { version: 1, articles: {} } as unknown as LockFile;
    const [spec] = h.specs(['beta gadgets']);
    const entry = { keyword: 'beta gadgets', status: 'finished', hash: planSync([spec!], lock, new Set()).articles[0]!.hash, articleId: '3f2b8c1e-9a4d-4e6f-8b2a-1c3d5e7f9a0b', attempt: 1, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', output: 'sha256:aa' };
    const withOld = { version: 1, articles: { 'beta-gadgets': entry } } as unknown as LockFile;
    const plan = planSync([{ ...spec!, slug: 'gadgets-beta' }], withOld, new Set(['sha256:aa']));
    expect(plan.articles[0]).toMatchObject({ slug: 'gadgets-beta', action: 'reuse', movedFrom: 'beta-gadgets' });
    expect(plan.orphans).toEqual([]);
    expect(plan.creates).toEqual([]);
    // An unknown create under the old slug is not retried under the new one, whose idempotency key would differ.
    const unknown = planSync([{ ...spec!, slug: 'gadgets-beta' }], { version: 1, articles: { 'beta-gadgets': { ...entry, status: 'unknown', articleId: undefined, output: undefined } } } as unknown as LockFile, new Set(), { idempotentCreates: true });
    expect(unknown.articles[0]).toMatchObject({ action: 'unknown', movedFrom: 'beta-gadgets' });
    expect(unknown.creates).toEqual([]);
  });
});
