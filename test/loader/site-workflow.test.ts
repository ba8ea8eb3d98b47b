// The site owner's workflow in real `astro build`s against the emulator: own data checked and typed by dataSchema, drafts and
// publish dates, hand edits, JSON-LD, and two collections with two manifests in one folder (each its own lock file).
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, createSite, typecheck, type RunResult, type Site } from './astro-site.js';

let emulator: RunningEmulator;
let site: Site;
let first: RunResult;

const env = (extra: Record<string, string> = {}) => ({ ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey, ...extra });
const page = (path: string) => join(site.root, 'dist', path, 'index.html');
const html = (path: string) => readFile(page(path), 'utf8');

function shared<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= run());
}

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({ timing: 'instant' });
  site = await createSite('workflow');
  first = await astro(site.root, ['build'], env());
}, 240_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('a site owner\'s workflow in astro build', () => {
  it('should give each collection its own lock file and cache, named after its manifest, and name the collections in the log', () => {
    expect(first.code, first.output).toBe(0);
    for (const name of ['articles.lock.json', 'articles.cache', 'guides.lock.json', 'guides.cache']) expect(existsSync(join(site.root, name)), name).toBe(true);
    expect(existsSync(page('guides/map-and-compass-basics'))).toBe(true);
    // Both collections' lines are named, the first one's from its first line on.
    expect(first.output).toMatch(/\] guides: /);
    expect(first.output).toMatch(/\] articles: \d+ articles: /);
  });

  it('should put the manifest\'s own data on entry.data, typed by dataSchema', async () => {
    expect(await html('articles/trail-running-shoes')).toContain('data-category="shoes"');
    expect(await html('articles/tent-footprint-guide')).toContain('data-category="gear"');
    const check = await typecheck(site.root);
    expect(check.output.split('\n').filter((line) => /error TS\d+/.test(line))).toEqual([]);
  });

  it('should create drafts and future-dated articles but leave them out of the build, and include them with drafts: true', async () => {
    expect(existsSync(page('articles/how-to-wax-skis'))).toBe(false);
    expect(existsSync(page('articles/winter-hiking-checklist'))).toBe(false);
    expect(first.output).toContain('2 draft or future-dated articles left out of the build (how-to-wax-skis, winter-hiking-checklist)');
    expect(emulator.ledger.creationsForKeyword('how to wax skis')).toHaveLength(1);
    const withDrafts = await astro(site.root, ['build'], env({ WORKFLOW_DRAFTS: '1' }));
    expect(withDrafts.code, withDrafts.output).toBe(0);
    expect(existsSync(page('articles/how-to-wax-skis'))).toBe(true);
    expect(existsSync(page('articles/winter-hiking-checklist'))).toBe(true);
    expect(emulator.ledger.creations).toHaveLength(5);
  }, 120_000);

  it('should serve a hand edit instead of the article, through the sanitizer', async () => {
    const lock = JSON.parse(await readFile(join(site.root, 'articles.lock.json'), 'utf8'));
    await mkdir(join(site.root, 'articles.edits'), { recursive: true });
    await writeFile(
      join(site.root, 'articles.edits', 'tent-footprint-guide.html'),
      `<!-- astro-article-loader: hand edit of "tent-footprint-guide" (article ${lock.articles['tent-footprint-guide'].articleId}). -->\n<h1>Footprints, fixed by hand</h1><p>Edited text.</p><script>alert(1)</script>`,
    );
    const requests = emulator.requests.length;
    const edited = await astro(site.root, ['build'], env());
    expect(edited.code, edited.output).toBe(0);
    const text = await html('articles/tent-footprint-guide');
    expect(text).toContain('Footprints, fixed by hand');
    expect(text).toContain('Edited text.');
    expect(text).toContain('data-edited="true"');
    expect(text).not.toContain('alert(1)');
    expect(emulator.requests.length).toBe(requests);
  }, 120_000);

  it('should let a page print the article\'s JSON-LD, with its FAQ', async () => {
    const script = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(await html('articles/trail-running-shoes'))?.[1];
    const [article, faq] = JSON.parse(script!) as Record<string, unknown>[];
    expect(article).toMatchObject({ '@type': 'Article', url: 'https://fixture.example/articles/trail-running-shoes/', publisher: { name: 'Fixture Outdoors' } });
    expect(article!.headline).toEqual(expect.any(String));
    expect(article!.wordCount).toBeGreaterThan(50);
    // includeFaq: the emulator writes a FAQ section, and the page's JSON-LD carries it as a FAQPage.
    expect(faq).toMatchObject({ '@type': 'FAQPage', mainEntity: expect.arrayContaining([expect.objectContaining({ '@type': 'Question', acceptedAnswer: expect.objectContaining({ '@type': 'Answer' }) })]) });
  });

  const refused = shared(async () => {
    const manifest = join(site.root, 'articles.yaml');
    const original = await readFile(manifest, 'utf8');
    const lockBefore = await readFile(join(site.root, 'articles.lock.json'), 'utf8');
    await writeFile(manifest, `${original}  - keyword: bear canisters\n    data: { category: food }\n`);
    const requests = emulator.requests.length;
    const result = await astro(site.root, ['build'], env());
    await writeFile(manifest, original);
    return { result, requests: emulator.requests.length - requests, lockChanged: lockBefore !== (await readFile(join(site.root, 'articles.lock.json'), 'utf8')) };
  });

  it('should refuse data that fails dataSchema before anything is paid, naming file, entry and field', async () => {
    const { result, requests, lockChanged } = await refused();
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/articles\.yaml:\d+ articles\[4\] "bear canisters" → data\.category: .*\(dataSchema\)/);
    // Printed once: no second copy inside Astro's wrapper, no empty stack section.
    expect(result.output.match(/→ data\.category: /g)).toHaveLength(1);
    expect(result.output).not.toMatch(/Stack trace:\s*$/m);
    expect(requests).toBe(0);
    expect(lockChanged).toBe(false);
  }, 120_000);

  it('should refuse two collections sharing one lock file, naming both', async () => {
    const config = join(site.root, 'src/content.config.ts');
    const original = await readFile(config, 'utf8');
    await writeFile(config, original.replace("manifest: './guides.yaml',", "manifest: './guides.yaml', lockFile: './articles.lock.json',"));
    const result = await astro(site.root, ['build'], env());
    await writeFile(config, original);
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/the collections "(articles|guides)" and "(articles|guides)" would share the lock file/);
  }, 120_000);
});
