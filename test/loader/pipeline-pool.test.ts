// The pipeline on worker threads (dist/loader/pipeline-pool.js, as a build runs it): the same records as this thread
// makes, the settings' async functions (image fetch, the download cache) called back on the loader's thread, setup
// errors arriving as their own class, and when the loader chooses workers at all.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { writeArticle } from '../../src/emulator/placeholder-writer/index.js';
import { renderPng } from '../../src/emulator/png-image.js';
import { resolveQualityOptions } from '../../src/quality/index.js';
import { buildPackage, REPO } from './astro-site.js';

type Pool = typeof import('../../src/loader/pipeline-pool.js');
type Pipeline = typeof import('../../src/pipeline/index.js');
type Sync = typeof import('../../src/sync/index.js');
type Thread = typeof import('../../src/loader/quality-thread.js');
let pool: Pool;
let thread: Thread;
let pipeline: Pipeline;
let sync: Sync;
let server: Server;
let origin: string;
let dir: string;
const fetched: string[] = [];

beforeAll(async () => {
  await buildPackage();
  const dist = (path: string) => import(pathToFileURL(join(REPO, 'dist', path)).href);
  [pool, pipeline, sync, thread] = await Promise.all([dist('loader/pipeline-pool.js'), dist('pipeline/index.js'), dist('sync/index.js'), dist('loader/quality-thread.js')]);
  dir = await mkdtemp(join(tmpdir(), 'aal-pool-'));
  server = createServer((request, response) => {
    fetched.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'image/png' }).end(renderPng(64, 48, request.url ?? ''));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}, 240_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

const KEYWORDS = ['pour over coffee', 'cold brew', 'espresso at home', 'french press', 'coffee grinders'];

function site(name: string, cache: Map<string, string>) {
  return {
    links: pipeline.buildLinkMap({ articles: KEYWORDS.map((keyword) => ({ slug: keyword.replace(/ /g, '-'), keyword })), url: (slug) => `/articles/${slug}/` }),
    downloadImages: {
      dir: join(dir, name, 'public/_articles'),
      publicPath: '/_articles/',
      allowPrivateHosts: true,
      fetch: (input: string | URL | Request, init?: RequestInit) => globalThis.fetch(input, init),
      cache: { get: async (url: string) => cache.get(url), set: async (url: string, file: string) => void cache.set(url, file) },
    },
  };
}

function jobs(name: string) {
  return KEYWORDS.map((keyword, index) => ({
    html: `<h1>${keyword}</h1><p>Start with cold brew or french press, then try ${KEYWORDS[(index + 1) % KEYWORDS.length]}.</p><img src="${origin}/img/${index}.png" alt="">`,
    article: { keyword, slug: keyword.replace(/ /g, '-'), url: `/articles/${keyword.replace(/ /g, '-')}/`, request: articleRequestSchema.parse({ targetKeyword: keyword, articleType: 'blog_post' }) },
    keep: { cacheDir: join(dir, name, 'articles.cache'), output: `sha256:${String(index).repeat(64).slice(0, 64)}`, key: `key-${index}`, polished: false, updatedAt: 1_700_000_000_000, edit: null },
  }));
}

describe('the pipeline on worker threads', () => {
  it('should make the same records as this thread, keep them in the processed cache, and call the fetch and cache back here', async () => {
    const here = new Map<string, string>();
    const there = new Map<string, string>();
    // With the quality checks on: the workers check the article beside the pipeline, as this thread does.
    const checks = { options: resolveQualityOptions(), collection: { paths: KEYWORDS.map((keyword) => `/articles/${keyword.replace(/ /g, '-')}/`) } };
    const local = pool.inProcess(site('here', here), checks);
    const workers = pool.workerPool(site('there', there), checks, 2);
    try {
      const expected = await Promise.all(jobs('here').map((job) => local.process(job)));
      const actual = await Promise.all(jobs('there').map((job) => workers.process(job)));
      expect(actual).toEqual(expected);
      expect(actual[0]!.article.links.some((link) => link.source === 'local')).toBe(true);
      expect(actual[0]!.quality?.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
      expect(Array.isArray(actual[0]!.quality?.findings)).toBe(true);
      expect(actual[0]!.article.images[0]).toMatchObject({ width: 64, height: 48, originalSrc: `${origin}/img/0.png` });
      // The download cache the workers filled is this thread's map, and the files are on disk.
      expect([...there.keys()].sort()).toEqual([...here.keys()].sort());
      expect((await readdir(join(dir, 'there', 'public/_articles'))).length).toBe(KEYWORDS.length);
      const store = new sync.ProcessedStore(join(dir, 'there', 'articles.cache'));
      // The record as written: everything but the shingles, which stay with the pass that made them.
      expect(actual[1]!.quality?.shingles).toBeInstanceOf(Uint32Array);
      const { shingles: _inMemory, ...written } = actual[1]!.quality!;
      expect(await store.get('cold-brew', 'key-1')).toEqual(JSON.parse(JSON.stringify({ ...actual[1], quality: written })));
      expect((await readFile(store.file('cold-brew'))).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    } finally {
      await workers.close();
    }
  }, 60_000);

  it('should report a setup error as its own class, with its message', async () => {
    const workers = pool.workerPool({ maxLinks: -1 } as never, undefined, 2);
    try {
      const error = await workers.process(jobs('bad')[0]!).catch((cause: unknown) => cause);
      expect(error).toBeInstanceOf(pipeline.PipelineOptionError);
      expect((error as Error).message).toMatch(/maxLinks/);
    } finally {
      await workers.close();
    }
  }, 60_000);

  it('should fail only the article of a worker that crashed, saying so, and process the others: on the workers left, then on this thread', async () => {
    // A reply the worker cannot turn into a Response (status 999) throws in its message handler: the thread dies mid-article.
    const crashing = (name: string) => {
      const settings = site(name, new Map());
      const fetchImage = settings.downloadImages.fetch;
      const fetch = (input: string | URL | Request, init?: RequestInit): Promise<unknown> =>
        String(input).endsWith('/img/2.png') ? Promise.resolve({ [pool.FUNCTION_MARK]: 'response', status: 999, statusText: '', headers: [], body: null }) : fetchImage(input, init);
      return { ...settings, downloadImages: { ...settings.downloadImages, fetch } } as never;
    };
    const stopped = { status: 'rejected', reason: { code: 'pipeline_worker_stopped', message: expect.stringMatching(/^a pipeline worker stopped while processing this article \(.+\); build again/) } };
    for (const count of [2, 1]) {
      const workers = pool.workerPool(crashing(`crash-${count}`), undefined, count);
      try {
        const outcomes = await Promise.allSettled(jobs(`crash-${count}`).map((job) => workers.process(job)));
        expect(outcomes[2], `${count} workers`).toMatchObject(stopped);
        // With one worker, the two queued behind the crash ran on this thread: none waits for a worker that never comes.
        expect(outcomes.filter((_, index) => index !== 2).map((outcome) => outcome.status), `${count} workers`).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
        expect(await workers.process(jobs(`crash-${count}`)[0]!)).toMatchObject({ polished: false });
      } finally {
        await workers.close();
      }
    }
  }, 60_000);

  it('should choose workers only for enough articles, on enough cores, with settings that can cross threads', async () => {
    const settings = site('choice', new Map());
    const kind = (processor: { close(): Promise<void> }) => processor.constructor.name;
    const chosen = pool.articleProcessor(settings, undefined, 500, 8);
    expect(kind(chosen)).toBe('WorkerPool');
    await chosen.close();
    expect(kind(pool.articleProcessor(settings, undefined, pool.WORKER_THRESHOLD - 1, 8))).toBe('Object');
    expect(kind(pool.articleProcessor(settings, undefined, 500, 2))).toBe('Object');
    expect(kind(pool.articleProcessor({ ...settings, externalLinks: { rel: () => 'nofollow' } }, undefined, 500, 8))).toBe('Object');
  }, 60_000);

  it('should check articles on a thread of their own exactly as on this thread, for enough articles on 2 cores', async () => {
    const checks = { options: resolveQualityOptions(), collection: { paths: KEYWORDS.map((keyword) => `/articles/${keyword.replace(/ /g, '-')}/`) } };
    // Placeholder articles with their findings (the writer repeats sentences), one in German, one asking for an FAQ it lacks.
    const requests = [...KEYWORDS.map((targetKeyword) => ({ targetKeyword })), { targetKeyword: 'kaffee mahlen', language: 'German' }, { targetKeyword: 'milk frothers', includeFaq: true }];
    const processor: typeof import('../../src/pipeline/processor.js') = await import(pathToFileURL(join(REPO, 'dist/pipeline/processor.js')).href);
    const articles = await Promise.all(
      requests.map(async (input) => {
        const request = articleRequestSchema.parse(input);
        const slug = request.targetKeyword.replace(/ /g, '-');
        const { article, tree } = await processor.processArticleTree(writeArticle(request).html, { keyword: request.targetKeyword, slug });
        return { slug, request, html: article.html, title: article.title, tree };
      }),
    );
    const here = thread.inlineChecker(checks);
    const expected = await Promise.all(articles.map((article) => here.check(article)));
    expect(expected.flatMap((quality) => quality.findings).length).toBeGreaterThan(0);
    const beside = thread.qualityThread(checks);
    try {
      expect(await Promise.all(articles.map((article) => beside.check(article)))).toEqual(expected);
      expect((await beside.check(articles[0]!)).shingles).toBeInstanceOf(Uint32Array);
      // An article the checks throw on fails there as here: its error's name and message come back.
      const broken = { ...articles[0]!, html: undefined as unknown as string, tree: undefined };
      const thrown = (await here.check(broken).catch((error: unknown) => error)) as Error;
      expect(thrown).toBeInstanceOf(Error);
      await expect(beside.check(broken)).rejects.toMatchObject({ name: thrown.name, message: thrown.message });
    } finally {
      await beside.close();
    }
    // Closed (or stopped) with articles still held: they, and every later one, are checked here, with the same findings.
    const closing = thread.qualityThread(checks);
    const held = articles.map((article) => closing.check(article));
    await closing.close();
    expect(await Promise.all(held)).toEqual(expected);
    expect(await closing.check(articles[1]!)).toEqual(expected[1]);
    expect(pool.checksBeside(checks, pool.WORKER_THRESHOLD, 2)).toBe(true);
    expect(pool.checksBeside(checks, pool.WORKER_THRESHOLD - 1, 2)).toBe(false);
    expect(pool.checksBeside(checks, 500, 1)).toBe(false);
    expect(pool.checksBeside(undefined, 500, 2)).toBe(false);
  }, 60_000);
});
