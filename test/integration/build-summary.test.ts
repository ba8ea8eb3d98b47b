// formatBuildSummary over queue snapshots as the loader publishes them: what each line says, and what it never invents.
import { describe, expect, it } from 'vitest';
import { formatBuildSummary } from '../../src/integration/build-summary.js';
import type { QueueArticle, QueueSnapshot } from '../../src/loader/runtime.js';

const ROOT = '/site';

function article(slug: string, state: QueueArticle['state'], patch: Partial<QueueArticle> = {}): QueueArticle {
  return { slug, keyword: slug.replaceAll('-', ' '), url: `/articles/${slug}/`, state, statusDetail: null, progress: 1, error: null, wordsBilled: 0, wordsRecorded: false, ...patch };
}

function snapshot(patch: Omit<Partial<QueueSnapshot>, 'totals'> & { totals?: Partial<QueueSnapshot['totals']> } = {}): QueueSnapshot {
  const { totals, ...rest } = patch;
  return {
    collection: 'articles',
    mode: 'remote',
    frozen: false,
    budget: 25,
    manifest: `${ROOT}/articles.yaml`,
    lockFile: `${ROOT}/articles.lock.json`,
    cacheDir: `${ROOT}/articles.cache`,
    running: false,
    articles: [],
    changed: false,
    problem: null,
    updatedAt: 0,
    ...rest,
    totals: { created: 0, estimatedWords: 0, billedWords: 0, imageWords: 0, linkCredits: 0, reused: 0, finished: 0, failed: 0, unknown: 0, waitedFor: 0, pending: 0, requests: 0, waitedMs: 0, ...totals },
  };
}

/** The block's rows by label. */
function rows(block: string | undefined): Record<string, string> {
  expect(block).toBeDefined();
  const [title, ...lines] = block!.split('\n');
  expect(title).toBe('build summary');
  return Object.fromEntries(lines.map((line) => /^ {2}(\w+) +(.*)$/.exec(line)!.slice(1, 3) as [string, string]));
}

const created = snapshot({
  articles: [article('a', 'reused'), article('b', 'finished', { wordsBilled: 1200 }), article('c', 'failed', { wordsBilled: 800, error: { code: 'generation_failed', message: 'stopped' } })],
  totals: { created: 2, estimatedWords: 2000, reused: 1, finished: 1, failed: 1, requests: 9, waitedMs: 83_000 },
  changed: true,
});

describe('formatBuildSummary', () => {
  it('should return undefined when no article collection was loaded', () => {
    expect(formatBuildSummary([], ROOT)).toBeUndefined();
  });

  it('should count every article once, by the state the build left it in', () => {
    const snapshotWithPending = snapshot({ articles: [article('a', 'reused'), article('b', 'reused'), article('c', 'finished'), article('d', 'failed'), article('e', 'processing')] });
    expect(rows(formatBuildSummary([snapshotWithPending], ROOT)).articles).toBe('5 articles: 2 reused, 1 finished, 1 failed, 1 still being written');
  });

  it('should call the words an estimate and leave failed articles out of it while no article has a recorded figure', () => {
    expect(rows(formatBuildSummary([created], ROOT)).billed).toBe(
      '2 new articles created (1 failed, not billed), ≈1,200 words billed (estimated from the request settings, images included)',
    );
  });

  it('should print the recorded words billed and the image words once the articles finished', () => {
    const recorded = snapshot({
      ...created,
      articles: [article('a', 'reused'), article('b', 'finished', { wordsBilled: 1432, wordsRecorded: true }), created.articles[2]!],
      totals: { ...created.totals, billedWords: 1432, imageWords: 200 },
    });
    expect(rows(formatBuildSummary([recorded], ROOT)).billed).toBe('2 new articles created (1 failed, not billed), 1,432 words billed (200 of them for images)');
  });

  it('should add an estimate for the articles still being written to the recorded words', () => {
    const partly = snapshot({
      articles: [article('b', 'finished', { wordsBilled: 1432, wordsRecorded: true }), article('c', 'processing', { wordsBilled: 900 })],
      totals: { created: 2, billedWords: 1432 },
    });
    expect(rows(formatBuildSummary([partly], ROOT)).billed).toBe('2 new articles created, 1,432 words billed, and ≈900 for the articles still being written');
  });

  it('should bill nothing for articles the embedded emulator wrote offline', () => {
    const offline = snapshot({ ...created, mode: 'offline' });
    expect(rows(formatBuildSummary([offline], ROOT)).billed).toBe('2 new articles written offline by the embedded emulator (placeholder text or your own model, nothing billed)');
  });

  it('should say nothing was billed when nothing was created', () => {
    expect(rows(formatBuildSummary([snapshot({ articles: [article('a', 'reused')] })], ROOT)).billed).toBe('nothing created, nothing billed');
  });

  it('should give the internal-link credits spent, or say none were', () => {
    expect(rows(formatBuildSummary([created], ROOT)).links).toBe('no internal-link credits spent');
    const linked = snapshot({ ...created, totals: { ...created.totals, linkCredits: 2 } });
    expect(rows(formatBuildSummary([linked], ROOT)).links).toBe('2 internal-link credits spent');
  });

  it('should give the requests and the time spent waiting on the service', () => {
    expect(rows(formatBuildSummary([created], ROOT)).service).toBe('9 requests, 1 min 23 s waiting for articles to be written');
  });

  it('should say every article came from the cache when no request was made', () => {
    expect(rows(formatBuildSummary([snapshot({ articles: [article('a', 'reused')] })], ROOT)).service).toBe('no requests: every article came from the cache');
  });

  it('should point at the lock file and the cache, relative to the root, only when they changed', () => {
    expect(rows(formatBuildSummary([created], ROOT)).commit).toBe('articles.lock.json and articles.cache/ changed: commit them, so the next build (and CI) reuses these articles');
    expect(rows(formatBuildSummary([snapshot({ articles: [article('a', 'reused')] })], ROOT)).commit).toBeUndefined();
  });

  it('should name each collection when there are several', () => {
    const docs = snapshot({ ...created, collection: 'docs', lockFile: `${ROOT}/docs/articles.lock.json`, cacheDir: `${ROOT}/docs/articles.cache`, problem: 'over budget' });
    const summary = rows(formatBuildSummary([created, docs], ROOT));
    expect(summary.articles).toBe('6 articles in 2 collections (articles: 3, docs: 3): 2 reused, 2 finished, 2 failed');
    expect(summary.commit).toBe('articles.lock.json and articles.cache/; docs/articles.lock.json and docs/articles.cache/ changed: commit them, so the next build (and CI) reuses these articles');
    expect(summary.problem).toBe('docs: over budget');
  });

  it('should give the quality counts and each error finding by slug, and no quality row when nothing was found', () => {
    const quality = { errors: 1, warnings: 2, articles: 2, errorFindings: [{ slug: 'best-shoes', code: 'writer_leftover', message: 'x' }] };
    const block = formatBuildSummary([snapshot({ quality })], ROOT)!;
    expect(block).toContain('  quality   1 error, 2 warnings in 2 articles (`astro-article-loader check` lists them)\n            error best-shoes: writer_leftover');
    expect(formatBuildSummary([snapshot({ quality: { errors: 0, warnings: 0, articles: 0, errorFindings: [] } })], ROOT)).not.toContain('quality');
  });
});
