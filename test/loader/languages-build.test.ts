// Several languages in a real `astro build` against the emulator: each (entry, language) a page at its nested id, its entry data,
// Arabic right to left, no internal link across languages; adding languages creates only the new languages' articles (the emulator's ledger).
// The first build keeps the Quick start's [slug].astro: it warns, naming the page and the rest route, before Astro stops on it. The second
// follows the README's "Several languages" (its [...slug].astro page) and builds; the Arabic slug the first recorded, transliterated as
// earlier versions did by default, stays where the default per script now keeps Arabic as written: no create, no move.
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, createSite, REPO, type RunResult, type Site } from './astro-site.js';

let site: Site;
let emulator: RunningEmulator;
let first: RunResult;
let second: RunResult;
let createdFirst: string[];
let createdSecond: string[];
let lockBefore: Record<string, unknown>;
let lockAfter: Record<string, unknown>;

/** The manifest in `languages`: a keyword of its own per language where there is one (one for a language not listed is an error). */
const manifest = (languages: string[], slugs?: string) => {
  const keywords = (all: Record<string, string>) => `{ ${Object.entries(all).filter(([language]) => languages.includes(language)).map(([language, keyword]) => `${language}: ${keyword}`).join(', ')} }`;
  return [
    ...(slugs === undefined ? [] : ['translations:', `  slugs: ${slugs}`]),
    'defaults:',
    `  languages: [${languages.join(', ')}]`,
    '  articleLength: shorter',
    'articles:',
    `  - keyword: ${keywords({ English: 'espresso machines', German: 'Espressomaschinen', Arabic: 'آلات الإسبريسو' })}`,
    `  - keyword: ${keywords({ English: 'milk frothers', German: 'Milchaufschäumer' })}`,
  ].join('\n');
};

// The test's own page, at /data/<id>/ beside the site's: it shows the entry's language fields.
const DATA_PAGE = `---
import { getCollection, render } from 'astro:content';
export async function getStaticPaths() {
  return (await getCollection('articles')).map((entry) => ({ params: { slug: entry.id }, props: { entry } }));
}
const { entry } = Astro.props;
const { Content } = await render(entry);
---
<html lang={entry.data.locale ?? 'en'}><body data-locale={entry.data.locale} data-dir={entry.data.dir} data-key={entry.data.translationKey} data-translations={JSON.stringify(entry.data.translations)}>
<article><Content /></article></body></html>
`;

/** The README's block that starts with the comment naming `file`, in the section that starts with `heading`. */
function readmeBlock(readme: string, heading: string, file: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  const section = readme.slice(start, readme.indexOf('\n## ', start + heading.length + 2));
  const block = [...section.matchAll(/```astro\n([\s\S]*?)```/g)].map((match) => match[1]!).find((body) => body.split('\n').slice(0, 2).join('\n').includes(`// ${file} `));
  if (block === undefined) throw new Error(`the README's "${heading}" has no block for ${file}`);
  return block;
}

function creations(): string[] {
  return emulator.ledger.creations.map((creation) => creation.targetKeyword);
}

function env(): Record<string, string> {
  return { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
}

const page = (id: string) => readFile(join(site.root, 'dist/data', id, 'index.html'), 'utf8');
const lockArticles = async () => (JSON.parse(await readFile(join(site.root, 'articles.lock.json'), 'utf8')) as { articles: Record<string, unknown> }).articles;

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({ timing: 'instant' });
  site = await createSite('basic');
  await mkdir(join(site.root, 'src/pages/data'), { recursive: true });
  await writeFile(join(site.root, 'src/pages/data/[...slug].astro'), DATA_PAGE);
  // `transliterate`: Arabic spelt as earlier versions spelt it by default, so the lock file is such a site's.
  await writeFile(join(site.root, 'articles.yaml'), manifest(['English', 'Arabic'], 'transliterate'));
  first = await astro(site.root, ['build'], env());
  createdFirst = creations();
  lockBefore = await lockArticles();
  const readme = await readFile(join(REPO, 'README.md'), 'utf8');
  await rm(join(site.root, 'src/pages/articles/[slug].astro'));
  await writeFile(join(site.root, 'src/pages/articles/[...slug].astro'), readmeBlock(readme, '## Several languages', 'src/pages/articles/[...slug].astro'));
  await mkdir(join(site.root, 'src/layouts'), { recursive: true });
  await writeFile(join(site.root, 'src/layouts/Article.astro'), readmeBlock(readme, '## Quick start for a new Astro site', 'src/layouts/Article.astro'));
  await writeFile(join(site.root, 'articles.yaml'), manifest(['English', 'German', 'Arabic']));
  second = await astro(site.root, ['build'], env());
  createdSecond = creations().slice(createdFirst.length);
  lockAfter = await lockArticles();
}, 600_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe("the Quick start's [slug].astro with languages", () => {
  it('should warn once, naming the page, the rest route and the guide, before Astro stops with Missing parameter', () => {
    expect(first.code, first.output).not.toBe(0);
    const warning = 'src/pages/articles/[slug].astro reads the collection "articles", whose ids have folders (en/espresso-machines), but [slug] takes one path segment';
    expect(first.output.split(warning).length - 1, first.output).toBe(1);
    expect(first.output).toContain('Rename the page src/pages/articles/[...slug].astro: a rest parameter takes the whole id; see "Several languages" in the README of astro-article-loader and its guide docs/languages-routing.md');
    const stop = first.output.indexOf('Missing parameter: slug');
    expect(stop, first.output).toBeGreaterThan(first.output.indexOf(warning));
    // The sync ran before the pages: the articles are paid for and recorded.
    expect(createdFirst.sort()).toEqual(['espresso machines', 'milk frothers', 'milk frothers', 'آلات الإسبريسو'].sort());
  });

  it("should build with the README's page, and warn no more", async () => {
    expect(second.code, second.output).toBe(0);
    expect(second.output).not.toContain('Missing parameter');
    expect(second.output).not.toContain('docs/languages-routing.md');
    const html = await readFile(join(site.root, 'dist/articles/de/espressomaschinen/index.html'), 'utf8');
    expect(html).toMatch(/<h1>[^<]+<\/h1>/);
    expect(html).toContain('<div lang="de" dir="ltr">');
  });
});

describe('a site in several languages', () => {
  it('should create only the added language\'s articles', () => {
    expect(second.code, second.output).toBe(0);
    expect(createdSecond.sort()).toEqual(['Espressomaschinen', 'Milchaufschäumer']);
  });

  it('should keep the Arabic slug the lock file records, though the default now keeps Arabic as written: no create, no move', () => {
    expect(Object.keys(lockAfter).filter((id) => id.startsWith('ar/')).sort()).toEqual(['ar/alat-alasbrysw', 'ar/milk-frothers']);
    for (const id of ['en/espresso-machines', 'en/milk-frothers', 'ar/alat-alasbrysw', 'ar/milk-frothers']) expect(lockAfter[id], id).toEqual(lockBefore[id]);
    expect(existsSync(join(site.root, 'dist/articles/ar/alat-alasbrysw/index.html'))).toBe(true);
    expect(second.output).not.toMatch(/آلات-الإسبريسو/);
  });

  it('should give each translation its page at its id, with its locale, key, siblings and direction', async () => {
    const html = await page('de/espressomaschinen');
    expect(html).toContain('data-locale="de"');
    expect(html).toContain('data-key="espresso-machines"');
    expect(html).toContain(`data-translations="${JSON.stringify({ en: 'en/espresso-machines', de: 'de/espressomaschinen', ar: 'ar/alat-alasbrysw' }).replaceAll('"', '&quot;')}"`);
    expect(html).toContain('<div lang="de" dir="ltr">');
    await expect(page('en/milk-frothers')).resolves.toContain('data-locale="en"');
    await expect(page('ar/milk-frothers')).resolves.toContain('data-dir="rtl"');
  });

  it('should put an Arabic article in <div lang="ar" dir="rtl">', async () => {
    const html = await page('ar/alat-alasbrysw');
    expect(html).toContain('<div lang="ar" dir="rtl">');
    expect(html).toContain('data-dir="rtl"');
  });

  it('should link no article to another language', async () => {
    for (const id of ['en/espresso-machines', 'en/milk-frothers', 'de/espressomaschinen', 'de/milchaufschaeumer', 'ar/alat-alasbrysw', 'ar/milk-frothers']) {
      const hrefs = [...(await page(id)).matchAll(/href="(\/articles\/[^"]*)"/g)].map((match) => match[1]!);
      const locale = id.split('/')[0];
      // The user's own link (links option) goes into every language; article links only within one.
      expect(hrefs.filter((href) => !href.includes('how-to-descale')).every((href) => href.startsWith(`/articles/${locale}/`)), `${id}: ${hrefs.join(', ')}`).toBe(true);
    }
  });
});
