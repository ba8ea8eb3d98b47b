// The playground, built offline from its committed lock file, cache and edits as a fresh clone would: categories, a draft and a
// scheduled article left out, a hand edit served, JSON-LD, og: tags and a canonical link, the RSS feed and the sitemap, and
// the articles in English and German (Astro i18n routing, hreflang links, a language switcher, the sitemap's alternates).
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, type RunResult } from '../loader/astro-site.js';
import { builtPlayground } from './playground-site.js';

let root: string;
let build: RunResult;
let lockBefore: string;
const PUBLISHED = [
  'how-to-brew-pour-over-coffee',
  'pour-over-coffee-ratio',
  'french-press-vs-pour-over',
  'best-coffee-grinders',
  'baratza-encore-review',
  'coffee-brewing-methods',
  'best-coffee-shops-in-berlin',
  'how-to-make-cold-brew',
];
/** The articles of entries with `languages: [English, German]`: ids `{locale}/{key}`, pages /articles/<key>/ and /de/articles/<key>/. */
const TRANSLATED = ['pour-over-grind-size', 'how-to-store-coffee-beans'];
const html = (slug: string) => readFile(join(root, 'dist/articles', slug, 'index.html'), 'utf8');
const jsonLdOf = (page: string) => JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page)![1]!) as Record<string, unknown>[];

beforeAll(async () => {
  // Built once per run with playground-mobile.test.ts, which reads the same pages.
  ({ root, build, lockBefore } = await builtPlayground());
}, 300_000);

describe('the playground, built offline from what is committed', () => {
  it('should commit a lock file and cache that verify finds consistent, without a warning', () => {
    const verify = spawnSync(process.execPath, [join(REPO, 'dist/cli/index.js'), 'verify', '--json'], { cwd: root, encoding: 'utf8' });
    expect(verify.status, verify.stderr).toBe(0);
    const report = JSON.parse(verify.stdout) as { ok: boolean; entries: number; problems: unknown[] };
    expect(report.entries).toBeGreaterThan(PUBLISHED.length);
    expect(report.problems).toEqual([]);
  });

  it('should build every published article and leave the draft and the scheduled one out, writing nothing', async () => {
    expect(build.code, build.output).toBe(0);
    for (const slug of PUBLISHED) expect(existsSync(join(root, 'dist/articles', slug, 'index.html')), slug).toBe(true);
    expect(existsSync(join(root, 'dist/articles/aeropress-recipes'))).toBe(false);
    expect(existsSync(join(root, 'dist/articles/coffee-subscription-boxes'))).toBe(false);
    expect(await readFile(join(root, 'articles.lock.json'), 'utf8')).toBe(lockBefore);
  });

  it('should serve the hand edit, with its FAQ in the JSON-LD, and show each article\'s category', async () => {
    const page = await html('pour-over-coffee-ratio');
    expect(page).toContain('Pour Over Coffee Ratio: 1:16, and When to Change It');
    const [article, faq] = jsonLdOf(page);
    expect(article).toMatchObject({ '@type': 'Article', headline: 'Pour Over Coffee Ratio: 1:16, and When to Change It', url: 'https://playground.example/articles/pour-over-coffee-ratio/' });
    expect(faq).toMatchObject({ '@type': 'FAQPage' });
    expect(await html('best-coffee-grinders')).toContain('gear ·');
  });

  it('should give each article og: tags, a canonical link and an og:image where it has one', async () => {
    const page = await html('how-to-brew-pour-over-coffee');
    expect(page).toContain('<link rel="canonical" href="https://playground.example/articles/how-to-brew-pour-over-coffee/">');
    expect(page).toMatch(/<meta property="og:type" content="article">/);
    expect(page).toMatch(/<meta property="og:image" content="https:\/\/playground\.example\/_articles\/[^"]+">/);
    expect(jsonLdOf(page)[0]).toMatchObject({ image: { '@type': 'ImageObject', url: expect.stringMatching(/^https:\/\/playground\.example\/_articles\//) } });
  });

  it("should give an article without images its generated card as og:image and in JSON-LD, from the committed cache, drawing none", async () => {
    expect(build.output).toContain('cover cards: 0 drawn, 8 from the cache');
    const page = await html('pour-over-coffee-ratio');
    const url = /<meta property="og:image" content="([^"]+)">/.exec(page)?.[1];
    expect(url).toMatch(/^https:\/\/playground\.example\/_articles\/covers\/pour-over-coffee-ratio-[0-9a-f]{16}\.png$/);
    expect(imageSize(await readFile(join(root, 'dist', new URL(url!).pathname)))).toMatchObject({ type: 'png', width: 1200, height: 630 });
    expect(jsonLdOf(page)[0]).toMatchObject({ image: { '@type': 'ImageObject', url, width: 1200, height: 630 } });
  });

  it('should publish an RSS feed and a sitemap of the published articles only', async () => {
    const feed = await readFile(join(root, 'dist/rss.xml'), 'utf8');
    const links = [...feed.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)].map((match) => match[1]);
    // The English articles: the German ones are the /de/ site's.
    expect(links.sort()).toEqual([...PUBLISHED, ...TRANSLATED].map((slug) => `https://playground.example/articles/${slug}/`).sort());
    const sitemap = await readFile(join(root, 'dist/sitemap-0.xml'), 'utf8');
    expect(sitemap).toContain('https://playground.example/articles/pour-over-coffee-ratio/');
    expect(sitemap).not.toContain('aeropress-recipes');
    expect(sitemap).not.toContain('coffee-subscription-boxes');
  });

  it('should build each translated article in English and German, each page with hreflang links to both, x-default and a language switcher', async () => {
    for (const key of TRANSLATED) {
      const urls = { en: `https://playground.example/articles/${key}/`, de: `https://playground.example/de/articles/${key}/` };
      for (const [locale, file] of [['en', join(root, 'dist/articles', key, 'index.html')], ['de', join(root, 'dist/de/articles', key, 'index.html')]] as const) {
        const page = await readFile(file, 'utf8');
        expect(page).toContain(`<html lang="${locale}" dir="ltr">`);
        const alternates = [...page.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(([, hreflang, href]) => [hreflang, href]);
        expect(Object.fromEntries(alternates)).toEqual({ ...urls, 'x-default': urls.en });
        const switcher = /<nav class="language-switcher"[^>]*>([\s\S]*?)<\/nav>/.exec(page)?.[1] ?? '';
        expect([...switcher.matchAll(/href="([^"]+)"/g)].map(([, href]) => href)).toEqual([new URL(urls.en).pathname, new URL(urls.de).pathname]);
        expect(jsonLdOf(page)[0]).toMatchObject({ inLanguage: locale, workTranslation: [{ '@id': locale === 'en' ? urls.de : urls.en }] });
      }
    }
    // The one-language articles have none.
    expect(await html('pour-over-coffee-ratio')).not.toMatch(/hreflang=/);
  });

  it("should give the translated articles' sitemap entries their alternates (the sitemap's i18n option)", async () => {
    const sitemap = await readFile(join(root, 'dist/sitemap-0.xml'), 'utf8');
    for (const key of TRANSLATED) {
      for (const loc of [`https://playground.example/articles/${key}/`, `https://playground.example/de/articles/${key}/`]) {
        const entry = new RegExp(`<url><loc>${loc.replaceAll('.', '\\.')}</loc>(.*?)</url>`).exec(sitemap)?.[1] ?? '';
        expect(entry, loc).toContain(`<xhtml:link rel="alternate" hreflang="en" href="https://playground.example/articles/${key}/"/>`);
        expect(entry, loc).toContain(`<xhtml:link rel="alternate" hreflang="de" href="https://playground.example/de/articles/${key}/"/>`);
      }
    }
  });
});
