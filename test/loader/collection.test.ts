// articleLoader() in this process, as Astro's content layer runs it, against Astro's own data store: what the dev
// server's queue (the toolbar's source) and the store see. Offline unless a case starts an emulator of its own.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { articleLoader } from '../../src/loader/index.js';
import type { ArticleCollection } from '../../src/loader/article-collection.js';
import { ArticlesNotReadyError } from '../../src/loader/not-ready-error.js';
import { loaderRuntime, shutdownRuntime } from '../../src/loader/runtime.js';
import { createTestSite, type TestSite } from './loader-context.js';

let site: TestSite;

beforeEach(async () => {
  site = await createTestSite();
});

afterEach(async () => {
  await shutdownRuntime();
  await site.cleanup();
});

/** Resolves once `condition` holds, checking between short pauses; the bound turns a hang into a message. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} never happened; log:\n${site.lines.map((line) => line.message).join('\n')}`);
}

function queue(collection = 'articles') {
  const snapshot = loaderRuntime().queues.get(collection);
  expect(snapshot, `no queue published for ${collection}`).toBeDefined();
  return snapshot!;
}

describe('the dev queue', () => {
  it('should list the keywords frozen mode keeps from being created, as failed with the reason', async () => {
    await site.write('articles.yaml', 'articles:\n  - espresso machines\n  - milk frothers\n');
    await articleLoader({ manifest: './articles.yaml', frozen: true }).load(site.context('articles', { dev: true }));
    const articles = queue().articles;
    expect(articles.map((a) => [a.slug, a.state, a.error?.code])).toEqual([
      ['espresso-machines', 'failed', 'frozen'],
      ['milk-frothers', 'failed', 'frozen'],
    ]);
    expect(articles[0]!.error!.message).toMatch(/frozen mode is on/);
    expect(articles[0]!.url).toBe('/articles/espresso-machines/');
    expect(queue().totals.failed).toBe(2);
  });

  it("should take the manifest's budget.perRun as the budget when the option is not given, and let the option win", async () => {
    await site.write('articles.yaml', 'budget:\n  perRun: 2\narticles:\n  - espresso machines\n  - milk frothers\n  - cold brew\n');
    await articleLoader({ manifest: './articles.yaml', frozen: false }).load(site.context('articles', { dev: true }));
    const articles = queue().articles;
    expect(articles.map((a) => a.error?.code)).toEqual(['over_budget', 'over_budget', 'over_budget']);
    expect(articles[0]!.error!.message).toMatch(/3 new articles exceed the budget of 2/);
    await shutdownRuntime();
    await articleLoader({ manifest: './articles.yaml', frozen: false, budget: 3 }).load(site.context('articles', { dev: true }));
    expect(queue().articles.every((a) => a.error?.code !== 'over_budget')).toBe(true);
  });

  it('should list the keywords over the budget, as failed with the reason', async () => {
    await site.write('articles.yaml', 'articles:\n  - espresso machines\n  - milk frothers\n  - cold brew\n');
    await articleLoader({ manifest: './articles.yaml', frozen: false, budget: 2 }).load(site.context('articles', { dev: true }));
    const articles = queue().articles;
    expect(articles.map((a) => [a.slug, a.state, a.error?.code])).toEqual([
      ['espresso-machines', 'failed', 'over_budget'],
      ['milk-frothers', 'failed', 'over_budget'],
      ['cold-brew', 'failed', 'over_budget'],
    ]);
    expect(articles[0]!.error!.message).toMatch(/3 new articles exceed the budget of 2/);
    // The store holds the same three as failed placeholders: the panel and the pages agree.
    expect([...site.store.values('articles')].map((entry) => [entry.id, (entry.data as { status: string }).status])).toEqual([
      ['espresso-machines', 'failed'],
      ['milk-frothers', 'failed'],
      ['cold-brew', 'failed'],
    ]);
  });
});

describe('placeholders in the store', () => {
  it('should not write the placeholder of an article still being written again when a manifest edit runs a new pass', async () => {
    // Ten minutes per article: it is still being written whenever the test looks.
    const emulator = await startEmulator({ timing: { queueDelayMs: 0, writingMs: 10 * 60_000 } });
    try {
      await site.write('articles.yaml', 'articles:\n  - espresso machines\n');
      await articleLoader({ manifest: './articles.yaml', apiKey: emulator.apiKey, baseUrl: emulator.url, frozen: false }).load(site.context('articles', { dev: true }));
      await until(() => site.writes.some((w) => w.id === 'espresso-machines' && w.status === 'processing'), 'a processing placeholder');
      const before = site.writes.length;
      const session = [...loaderRuntime().sessions.values()][0] as ArticleCollection;
      await session.refresh();
      // The pass found it pending, as the background wait showed it: the same entry, so no write (and no page reload).
      expect(site.writes.slice(before)).toEqual([]);
      expect((site.store.get('articles', 'espresso-machines') as { data: { status: string } }).data.status).toBe('processing');
    } finally {
      await shutdownRuntime();
      await emulator.stop();
    }
  }, 60_000);

  it("should give the panel each finished article's review state and findings in dev, and keep none of them in a build, which has no panel", async () => {
    const emulator = await startEmulator({ timing: 'instant' });
    try {
      await site.write('articles.yaml', 'articles:\n  - cold brew\n  - pour over\n');
      const loader = () => articleLoader({ manifest: './articles.yaml', apiKey: emulator.apiKey, baseUrl: emulator.url, frozen: false });
      await loader().load(site.context('articles'));
      const built = queue().articles;
      expect(built.map((a) => [a.slug, a.state])).toEqual([
        ['cold-brew', 'finished'],
        ['pour-over', 'finished'],
      ]);
      // The build summary's figures are still the pass's own: the dev panel below lists as many findings, in as many articles.
      const counted = queue().quality!;
      expect(counted.errors + counted.warnings).toBeGreaterThan(0);
      for (const article of built) expect(article.review).toBeUndefined();
      for (const article of built) expect(article.findings).toBeUndefined();
      await shutdownRuntime();
      // The dev server on the store the build left: every entry unchanged, each described for the panel all the same.
      await loader().load(site.context('articles', { dev: true }));
      await until(() => queue().articles.every((a) => a.findings !== undefined), 'each article given its findings');
      for (const article of queue().articles) expect(article.review).toBe('not-required');
      const listed = queue().articles.map((article) => article.findings!);
      expect(listed.flat().length).toBe(counted.errors + counted.warnings);
      expect(listed.filter((findings) => findings.length > 0).length).toBe(counted.articles);
      expect(listed.flat().filter((finding) => finding.severity === 'error').map((finding) => finding.message)).toEqual(counted.errorFindings.map((finding) => finding.message));
    } finally {
      await emulator.stop();
    }
  });
});

describe('collections that leave the content config', () => {
  const manifest = 'articles:\n  - espresso machines\n';

  /** The content config evaluated once: one loader per collection, made before any load() begins, as Astro does. */
  function evaluate(...collections: string[]) {
    return collections.map((collection) => ({ collection, loader: articleLoader({ manifest: './articles.yaml', lockFile: `./${collection}`, frozen: true }) }));
  }

  async function load(made: { collection: string; loader: ReturnType<typeof articleLoader> }[]): Promise<void> {
    await Promise.all(made.map(({ collection, loader }) => loader.load(site.context(collection, { dev: true }))));
  }

  beforeEach(async () => {
    await site.write('articles.yaml', manifest);
  });

  it('should end the session and forget the queue of a collection the next evaluation of the config no longer has', async () => {
    await load(evaluate('articles', 'extra'));
    expect([...loaderRuntime().queues.keys()].sort()).toEqual(['articles', 'extra']);
    await load(evaluate('articles'));
    expect([...loaderRuntime().queues.keys()]).toEqual(['articles']);
    expect([...loaderRuntime().sessions.values()].map((session) => session.collection)).toEqual(['articles']);
  });

  it('should end nothing before every loader of the evaluation has loaded, even when the config awaits between them', async () => {
    await load(evaluate('articles', 'extra'));
    const [first] = evaluate('articles');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const [second] = evaluate('extra');
    await load([first!]);
    expect([...loaderRuntime().queues.keys()].sort()).toEqual(['articles', 'extra']);
    await load([second!]);
    expect([...loaderRuntime().queues.keys()].sort()).toEqual(['articles', 'extra']);
  });

  it('should end nothing when the evaluation made a loader that no collection loads', async () => {
    await load(evaluate('articles', 'extra'));
    const [used] = evaluate('articles', 'unused');
    await load([used!]);
    expect([...loaderRuntime().queues.keys()].sort()).toEqual(['articles', 'extra']);
  });
});

describe('a build (in process)', () => {
  it('should fail listing the failed article, without a stack into the package, when onFailure is fail', async () => {
    const emulator = await startEmulator({ timing: 'instant' });
    emulator.setFaults({ failedArticles: 1 });
    try {
      await site.write('articles.yaml', 'articles:\n  - cold brew\n');
      const loader = articleLoader({ manifest: './articles.yaml', apiKey: emulator.apiKey, baseUrl: emulator.url, frozen: false, onFailure: 'fail' });
      const error = await loader.load(site.context('articles')).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ArticlesNotReadyError);
      const message = (error as Error).message;
      expect(message).toContain('1 article is not ready, and onFailure is "fail":');
      expect(message).toMatch(/- cold-brew: the service reported the article failed/);
      // Astro prints an error marked as its own once, as it is, and a "Stack trace:" section for any stack: there is none.
      expect((error as Error & { type?: unknown }).type).toBe('AstroError');
      expect((error as Error).stack).toBe('');
      expect(site.store.has('articles', 'cold-brew')).toBe(false);
    } finally {
      await emulator.stop();
    }
  });
});
