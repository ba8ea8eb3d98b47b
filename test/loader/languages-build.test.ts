// Several languages in a real `astro build` against the emulator: each (entry, language) a page at its nested id, its entry data,
// Arabic right to left, no internal link across languages; adding languages creates only the new languages' articles (the emulator's ledger).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, createSite, type RunResult, type Site } from './astro-site.js';

let site: Site;
let emulator: RunningEmulator;
let first: RunResult;
let second: RunResult;
let createdFirst: string[];
let createdSecond: string[];

/** The manifest in `languages`: a keyword of its own per language where there is one (one for a language not listed is an error). */
const manifest = (languages: string[]) => {
  const keywords = (all: Record<string, string>) => `{ ${Object.entries(all).filter(([language]) => languages.includes(language)).map(([language, keyword]) => `${language}: ${keyword}`).join(', ')} }`;
  return [
    'defaults:',
    `  languages: [${languages.join(', ')}]`,
    '  articleLength: shorter',
    'articles:',
    `  - keyword: ${keywords({ English: 'espresso machines', German: 'Espressomaschinen', Arabic: 'آلات الإسبريسو' })}`,
    `  - keyword: ${keywords({ English: 'milk frothers', German: 'Milchaufschäumer' })}`,
  ].join('\n');
};

// A catch-all route: a translation's id is nested (`de/espressomaschinen`). The page shows the entry's language fields.
const PAGE = `---
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

function creations(): string[] {
  return emulator.ledger.creations.map((creation) => creation.targetKeyword);
}

function env(): Record<string, string> {
  return { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
}

const page = (id: string) => readFile(join(site.root, 'dist/articles', id, 'index.html'), 'utf8');

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({ timing: 'instant' });
  site = await createSite('basic');
  await rm(join(site.root, 'src/pages/articles/[slug].astro'));
  await writeFile(join(site.root, 'src/pages/articles/[...slug].astro'), PAGE);
  await writeFile(join(site.root, 'articles.yaml'), manifest(['English']));
  first = await astro(site.root, ['build'], env());
  createdFirst = creations();
  await writeFile(join(site.root, 'articles.yaml'), manifest(['English', 'German', 'Arabic']));
  second = await astro(site.root, ['build'], env());
  createdSecond = creations().slice(createdFirst.length);
}, 600_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('a site in several languages', () => {
  it('should build, and adding languages should create only their articles', () => {
    expect(first.code, first.output).toBe(0);
    expect(second.code, second.output).toBe(0);
    expect(createdFirst.sort()).toEqual(['espresso machines', 'milk frothers']);
    // German has its own keywords; Arabic gives one for the first entry, and the second is sent with its keyword as written.
    expect(createdSecond.sort()).toEqual(['Espressomaschinen', 'Milchaufschäumer', 'milk frothers', 'آلات الإسبريسو'].sort());
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
