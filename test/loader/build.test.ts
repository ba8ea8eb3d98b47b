// A real `astro build` of the fixture site against the emulator: pages, TOC ids, safety, links, types, rebuilds, failures.
//
// The cases share one site and one emulator and run in order (each build is seconds of work): the
// second build relies on the first, the manifest edit on both. Each case still asserts one behaviour;
// where two behaviours can be seen in the same build or type check, their cases share it (`shared`).
// onFailure: "fail" is tested in process (test/loader/collection.test.ts): its build would only repeat
// what the frozen and mistyped-option builds show of a load() that throws.
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, createSite, typecheck, type RunResult, type Site } from './astro-site.js';
import { readPage } from './built-html.js';

const SLUGS = ['espresso-machines', 'best-espresso-machines', 'how-to-descale-an-espresso-machine'];

let emulator: RunningEmulator;
let site: Site;
let first: RunResult;
let second: RunResult;

function env(): Record<string, string> {
  return { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
}

function page(slug: string): string {
  return join(site.root, 'dist/articles', slug, 'index.html');
}

/** A build (or a check) run once, by whichever of the cases that share it comes first. */
function shared<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= run());
}

async function setLoaderOptions(extra: string): Promise<void> {
  const file = join(site.root, 'src/content.config.ts');
  const text = await readFile(join(site.root, 'content.config.original.ts'), 'utf8');
  await writeFile(file, text.replace("manifest: './articles.yaml',", `manifest: './articles.yaml', ${extra}`));
}

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({
    timing: 'instant',
    // A registered domain for the internal-links endpoint: "espresso" links to the fixture's home page.
    domains: [{ id: 'fixture-site', pages: [{ url: 'https://fixture.example/', title: 'Fixture home', keywords: ['espresso'] }] }],
  });
  site = await createSite('basic');
  await writeFile(join(site.root, 'content.config.original.ts'), await readFile(join(site.root, 'src/content.config.ts'), 'utf8'));
  first = await astro(site.root, ['build'], env());
}, 240_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('astro build with articleLoader', () => {
  it('should build a page for every article of the manifest', () => {
    expect(first.code, first.output).toBe(0);
    for (const slug of SLUGS) expect(existsSync(page(slug)), slug).toBe(true);
    expect(emulator.ledger.creations.map((c) => c.targetKeyword).sort()).toEqual(
      ['best espresso machines', 'espresso machines', 'how to descale an espresso machine'].sort(),
    );
  });

  it('should log a plan, the progress and a summary with the words billed', () => {
    expect(first.output).toMatch(/\[astro-article-loader\] 3 articles: 0 reused, 3 to create \(≈[\d,]+ words to bill\)/);
    expect(first.output).toMatch(/\[astro-article-loader\] writing: 3 ready of 3/);
    expect(first.output).toMatch(/\[astro-article-loader\] done in .*: 3 articles created, 3 finished, 0 reused · [\d,]+ words billed · \d+ requests/);
  });

  it('should give the headings the ids the table of contents links to', async () => {
    for (const slug of SLUGS) {
      const built = await readPage(page(slug));
      expect(built.toc.length, slug).toBeGreaterThan(0);
      for (const href of built.toc) expect(built.headingIds, `${slug} ${href}`).toContain(href.slice(1));
    }
  });

  it('should leave no script, event handler or javascript: URL in the article HTML', async () => {
    for (const slug of SLUGS) {
      const built = await readPage(page(slug));
      expect(built.articleHtml, slug).toBeDefined();
      expect(built.executable, slug).toEqual([]);
    }
  });

  it('should make every internal link lead to a built page', async () => {
    const internal: string[] = [];
    for (const slug of SLUGS) {
      const built = await readPage(page(slug));
      internal.push(...built.links.filter((href) => href.startsWith('/') || href.startsWith('https://fixture.example/')));
    }
    expect(internal.length).toBeGreaterThan(0);
    for (const href of internal) {
      const path = new URL(href, 'https://fixture.example').pathname;
      expect(existsSync(join(site.root, 'dist', path, 'index.html')), href).toBe(true);
    }
  });

  it('should make no request on a second build and skip every unchanged entry by its digest', async () => {
    const requestsBefore = emulator.requests.length;
    const creationsBefore = emulator.ledger.creations.length;
    second = await astro(site.root, ['build', '--verbose'], env());
    expect(second.code, second.output).toBe(0);
    expect(emulator.requests.length).toBe(requestsBefore);
    expect(emulator.ledger.creations.length).toBe(creationsBefore);
    expect(second.output).toContain('astro:astro-article-loader entries: 0 rendered, 0 from the processed cache, 3 unchanged (digest), 0 placeholders');
  });

  it('should log nothing above debug level on a build where nothing happens, but the warning that --verbose logs the key', () => {
    // Info and warning lines carry the "[astro-article-loader]" label; --verbose debug lines do not.
    expect(second.output).toContain('astro:astro-article-loader');
    const labelled = second.output.split('\n').filter((line) => line.includes('[astro-article-loader]'));
    expect(labelled).toEqual([expect.stringContaining('this log will contain your API key')]);
  });

  // A keyword added and the service's internal links turned on, in one build.
  const addedAndLinked = shared(async () => {
    const creations = emulator.ledger.creations.length;
    const charges = emulator.ledger.linkCharges.length;
    await appendFile(join(site.root, 'articles.yaml'), '  - milk frothers\n');
    await setLoaderOptions("internalLinks: { domainId: 'fixture-site', siteUrl: 'https://fixture.example' },");
    const result = await astro(site.root, ['build'], env());
    return { result, creations: emulator.ledger.creations.slice(creations), charges: emulator.ledger.linkCharges.length - charges };
  });

  it('should create exactly one article after a keyword is added and reuse the others', async () => {
    const { result, creations } = await addedAndLinked();
    expect(result.code, result.output).toBe(0);
    expect(creations.map((c) => c.targetKeyword)).toEqual(['milk frothers']);
    expect(result.output).toMatch(/4 articles: 3 reused, 1 to create/);
    expect(existsSync(page('milk-frothers'))).toBe(true);
  });

  it("should add the service's internal links, paying one credit per article", async () => {
    const { result, charges } = await addedAndLinked();
    expect(result.code, result.output).toBe(0);
    expect(charges).toBe(4);
    const homeLinks = (await readPage(page('espresso-machines'))).links.filter((href) => href === '/' || href === 'https://fixture.example/');
    expect(homeLinks.length).toBeGreaterThan(0);
  });

  // One type check of the site with a file that misuses entry.data: its errors must all be in that file.
  const typechecked = shared(async () => {
    const sync = await astro(site.root, ['sync'], env());
    const wrong = join(site.root, 'src/lib/wrong-type.ts');
    await writeFile(
      wrong,
      "import type { CollectionEntry } from 'astro:content';\nexport const minutes = (entry: CollectionEntry<'articles'>): string => entry.data.readingTime;\n",
    );
    const check = await typecheck(site.root);
    await rm(wrong);
    return { sync, check, errors: check.output.split('\n').filter((line) => /error TS\d+/.test(line)) };
  });

  it('should give entries types that compile where the page uses entry.data fields', async () => {
    const { sync, check, errors } = await typechecked();
    expect(sync.code, sync.output).toBe(0);
    expect(errors.length, check.output).toBeGreaterThan(0);
    expect(errors.filter((line) => !line.includes('wrong-type.ts'))).toEqual([]);
  });

  it('should fail the type check where entry.data is used with the wrong type', async () => {
    const { check, errors } = await typechecked();
    expect(check.code).not.toBe(0);
    expect(errors).toEqual([expect.stringMatching(/wrong-type\.ts\(2,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/)]);
  });

  // A pipeline option changed (every article rendered again) and a keyword taken out, in one build that must ask nothing of the service.
  const relinkedAndRemoved = shared(async () => {
    const requests = emulator.requests.length;
    const charges = emulator.ledger.linkCharges.length;
    const manifest = join(site.root, 'articles.yaml');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('  - milk frothers\n', ''));
    await setLoaderOptions("internalLinks: { domainId: 'fixture-site', siteUrl: 'https://fixture.example' }, maxLinks: 9,");
    const result = await astro(site.root, ['build'], env());
    await setLoaderOptions('');
    return { result, requests: emulator.requests.length - requests, charges: emulator.ledger.linkCharges.length - charges };
  });

  it('should never pay again for the internal links of an article it already linked', async () => {
    // The link answers come from articles.cache/links/.
    const { result, charges, requests } = await relinkedAndRemoved();
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('3 articles rendered (0 unchanged)');
    expect(charges).toBe(0);
    expect(requests).toBe(0);
  });

  it('should remove the page of a keyword taken out of the manifest, without a request', async () => {
    const { result, requests } = await relinkedAndRemoved();
    expect(result.code, result.output).toBe(0);
    expect(existsSync(page('milk-frothers'))).toBe(false);
    expect(existsSync(page('espresso-machines'))).toBe(true);
    expect(requests).toBe(0);
  });

  it('should fail a frozen build before creating anything, listing what it would create', async () => {
    const manifest = join(site.root, 'articles.yaml');
    const original = await readFile(manifest, 'utf8');
    const before = emulator.ledger.creations.length;
    await appendFile(manifest, '  - cold brew\n');
    const frozen = await astro(site.root, ['build'], { ...env(), CI: 'true' });
    await writeFile(manifest, original);
    expect(frozen.code).not.toBe(0);
    expect(frozen.output).toMatch(/Frozen mode: 1 article\(s\) would be created/);
    expect(frozen.output).toContain('- cold-brew (new entry)');
    // Printed once, as it is: no empty stack section, no second copy inside Astro's wrapper.
    expect(frozen.output.split('Frozen mode: 1 article(s) would be created')).toHaveLength(2);
    expect(frozen.output).not.toContain('Stack trace:');
    expect(frozen.output).not.toContain('Caused by:');
    expect(emulator.ledger.creations.length).toBe(before);
  });

  it('should stop at a mistyped option with a message naming the option and the fix', async () => {
    await setLoaderOptions('budgett: 3,');
    const result = await astro(site.root, ['build'], env());
    await setLoaderOptions('');
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('unknown option `budgett`: did you mean `budget`?');
    expect(result.output.split('unknown option `budgett`')).toHaveLength(2);
    expect(result.output).not.toContain('Stack trace:');
    expect(result.output).not.toContain('Caused by:');
  });

  it('should build without an article the service failed when onFailure is skip (the default)', async () => {
    emulator.setFaults({ failedArticles: 1 });
    await appendFile(join(site.root, 'articles.yaml'), '  - cold brew\n');
    const result = await astro(site.root, ['build'], env());
    emulator.setFaults(undefined);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/\[WARN\] \[astro-article-loader\] 1 article was left out of the site \(onFailure: "skip"\): cold-brew/);
    expect(result.output).not.toMatch(/^\s+at /m);
    expect(existsSync(page('cold-brew'))).toBe(false);
    expect(existsSync(page('espresso-machines'))).toBe(true);
  });
});
