// The slim entry (issue 42) in a real `astro build` of the fixture site: what Astro stores of each entry is exactly the
// documented default fields; `entryData` puts the details back, typed (fixtures/sites/basic/src/lib/entry-details.ts, checked
// by build.test.ts); `articleDetails(entry)` gives a page the same details without them.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { articleDetails } from '../../src/index.js';
import { astro, buildPackage, createSite, REPO, type RunResult, type Site } from './astro-site.js';
import { storedEntries, type StoredEntry } from './data-store.js';

/** The default entry's built-in fields, as the README's "Entry data" paragraph lists them. */
const SLIM_FIELDS = [
  'keyword', 'title', 'slug', 'description', 'articleType', 'wordCount', 'readingTime', 'links', 'status', 'statusDetail', 'progress', 'error',
  'articleId', 'createdAt', 'updatedAt', 'polished', 'current', 'emulator', 'edited', 'quality', 'draft', 'publishDate', 'image', 'cover', 'faq',
  'review', 'locale', 'translationKey', 'translations', 'dir',
].sort();
const EVERY_PART = "entryData: ['findings', 'request', 'headings', 'images', 'links'],";

/** A static endpoint per article that answers what articleDetails() gives its page at build time. */
const DETAILS_ENDPOINT = `import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { articleDetails } from 'astro-article-loader';

export async function getStaticPaths() {
  return (await getCollection('articles')).map((entry) => ({ params: { slug: entry.id }, props: { entry } }));
}

export const GET: APIRoute = async ({ props }) => new Response(JSON.stringify(await articleDetails(props.entry)));
`;

let emulator: RunningEmulator;
let site: Site;
let slim: RunResult;
let slimEntries: Map<string, StoredEntry>;

interface Details {
  slug: string;
  findings: unknown[];
  request: Record<string, unknown> | null;
  headings: unknown[];
  images: unknown[];
  links: { href: string; internal: boolean }[];
}

async function details(slug: string): Promise<Details> {
  return JSON.parse(await readFile(join(site.root, 'dist/details', `${slug}.json`), 'utf8')) as Details;
}

async function build(extra: string, args: string[] = []): Promise<RunResult> {
  const file = join(site.root, 'src/content.config.ts');
  const text = await readFile(join(site.root, 'content.config.original.ts'), 'utf8');
  await writeFile(file, text.replace("manifest: './articles.yaml',", `manifest: './articles.yaml', ${extra}`));
  return astro(site.root, ['build', ...args], { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
}

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({ timing: 'instant' });
  site = await createSite('basic');
  await writeFile(join(site.root, 'content.config.original.ts'), await readFile(join(site.root, 'src/content.config.ts'), 'utf8'));
  await mkdir(join(site.root, 'src/pages/details'), { recursive: true });
  await writeFile(join(site.root, 'src/pages/details/[slug].json.ts'), DETAILS_ENDPOINT);
  slim = await build('');
  slimEntries = await storedEntries(site.root);
}, 240_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('the slim entry', () => {
  it('should store exactly the documented default fields, the quality counts without the findings, and the internal links as hrefs', () => {
    expect(slim.code, slim.output).toBe(0);
    expect(slimEntries.size).toBe(3);
    for (const [id, entry] of slimEntries) {
      expect(Object.keys(entry.data).sort(), id).toEqual(SLIM_FIELDS);
      expect(Object.keys(entry.data.quality as object).sort(), id).toEqual(['errors', 'warnings']);
      expect((entry.data.links as unknown[]).every((href) => typeof href === 'string' && href.startsWith('/')), id).toBe(true);
    }
    // The fixture's articles link to each other (their keywords, its `links` option): the hrefs a listing of related articles reads.
    const pages = [...slimEntries.keys()].map((id) => `/articles/${id}/`);
    expect([...slimEntries.values()].flatMap((entry) => entry.data.links as string[]).filter((href) => pages.includes(href)).length).toBeGreaterThan(0);
  });

  it('should document every default field in the README', async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const paragraph = /\*\*Entry data:\*\*[\s\S]*?\n\n/.exec(readme)![0];
    for (const field of SLIM_FIELDS) expect(paragraph, field).toContain(`\`${field}\``);
  });

  it('should give a page the details through articleDetails(): findings, request, headings, images and every link', async () => {
    for (const [id, entry] of slimEntries) {
      const answer = await details(id);
      expect(answer.slug).toBe(id);
      expect(answer.request?.targetKeyword, id).toBe(entry.data.keyword);
      expect(answer.request, id).not.toHaveProperty('integrationId');
      expect(answer.headings, id).toEqual(entry.rendered?.metadata?.headings);
      expect(answer.headings.length, id).toBeGreaterThan(0);
      const quality = entry.data.quality as { errors: number; warnings: number };
      expect(answer.findings, id).toHaveLength(quality.errors + quality.warnings);
      expect(answer.links.filter((link) => link.internal).map((link) => link.href), id).toEqual(entry.data.links);
    }
  });

  it('should refuse articleDetails() outside a build, saying where to call it', async () => {
    await expect(articleDetails({ id: 'espresso-machines', collection: 'articles' })).rejects.toMatchObject({
      code: 'details_unavailable',
      message: expect.stringContaining('no articleLoader() collection "articles" was loaded in this process'),
    });
  });
});

describe('entryData', () => {
  let detailed: RunResult;
  let entries: Map<string, StoredEntry>;

  beforeAll(async () => {
    const requests = emulator.requests.length;
    detailed = await build(EVERY_PART);
    entries = await storedEntries(site.root);
    // Only the entries' shape changed: nothing is asked of the service.
    expect(emulator.requests.length).toBe(requests);
  }, 240_000);

  it('should put every detail asked for back on each entry, and rewrite the entries stored slim', () => {
    expect(detailed.code, detailed.output).toBe(0);
    for (const [id, entry] of entries) {
      expect(Object.keys(entry.data).sort(), id).toEqual([...SLIM_FIELDS, 'config', 'headings', 'images'].sort());
      expect(Object.keys(entry.data.quality as object).sort(), id).toEqual(['errors', 'findings', 'warnings']);
      expect((entry.data.links as { href: string }[]).every((link) => typeof link.href === 'string'), id).toBe(true);
      expect(entry.digest, id).not.toBe(slimEntries.get(id)!.digest);
    }
  });

  it('should give the same details on the entry as articleDetails() gives without them', async () => {
    for (const [id, entry] of entries) {
      const answer = await details(id);
      expect(entry.data.config, id).toEqual(answer.request);
      expect((entry.data.quality as { findings: unknown[] }).findings, id).toEqual(answer.findings);
      expect(entry.data.headings, id).toEqual(answer.headings);
      expect(entry.data.images, id).toEqual(answer.images);
      expect(entry.data.links, id).toEqual(answer.links);
    }
  });

  it('should write an entry again from its record when the findings note is gone, and skip it by its digest when it is there', async () => {
    const note = join(site.root, 'node_modules/.astro/astro-article-loader/findings-articles.bin');
    expect(existsSync(note)).toBe(true);
    const kept = await build(`${EVERY_PART}`, ['--verbose']);
    expect(kept.output, kept.output).toContain('entries: 0 rendered, 0 from the processed cache, 3 unchanged (digest), 0 placeholders');
    await rm(note);
    const rewritten = await build(`${EVERY_PART}`, ['--verbose']);
    expect(rewritten.code, rewritten.output).toBe(0);
    expect(rewritten.output).toContain('entries: 0 rendered, 3 from the processed cache, 0 unchanged (digest), 0 placeholders');
    const again = await storedEntries(site.root);
    for (const [id, entry] of entries) expect(again.get(id)?.data.quality, id).toEqual(entry.data.quality);
  }, 240_000);

  it('should refuse a part it does not know, naming the parts', async () => {
    const wrong = await build("entryData: ['request', 'html'],");
    expect(wrong.code).not.toBe(0);
    expect(wrong.output).toContain('`entryData[1]` must be one of "findings", "request", "headings", "images", "links"');
  });
});
