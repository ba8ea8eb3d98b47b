// Cold builds, images and incremental builds in real `astro build`s of the fixture site, offline:
// - a build with an empty Astro data store (CI, a fresh clone) takes every unchanged article from articles.cache/processed/
//   and writes the same pages, without running the pipeline; a damaged record is processed again and replaced;
// - downloaded images go through astro:assets (WebP, width/height, srcset, alt kept), unless optimizeImages is false;
// - with Astro's experimental.incrementalBuild and entry.digest as the page's cacheKey, one changed article re-renders one page.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astro, buildPackage, createSite, type RunResult, type Site } from './astro-site.js';

let site: Site;
let first: RunResult;
const SLUGS = ['espresso-machines', 'best-espresso-machines', 'how-to-descale-an-espresso-machine'];
const page = (slug: string) => readFile(join(site.root, 'dist/articles', slug, 'index.html'), 'utf8');
const processedDir = () => join(site.root, 'articles.cache/processed');
const coversDir = () => join(site.root, 'articles.cache/covers');
/** The articles without images (the third has one): each gets a generated cover card. */
const CARDED = ['espresso-machines', 'best-espresso-machines'];
const ogImage = (html: string): string | undefined => /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
/** Each cached card's modification time, by file name. */
async function cardTimes(): Promise<Record<string, number>> {
  const names = (await readdir(coversDir())).sort();
  return Object.fromEntries(await Promise.all(names.map(async (name) => [name, (await stat(join(coversDir(), name))).mtimeMs] as const)));
}

/** A build with a cold data store: Astro's cache removed as a fresh checkout has it (the incremental cache goes with it). */
async function coldBuild(env: Record<string, string> = {}): Promise<RunResult> {
  await rm(join(site.root, '.astro'), { recursive: true, force: true });
  await rm(join(site.root, 'node_modules/.astro'), { recursive: true, force: true });
  return astro(site.root, ['build'], env);
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(site.root, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${from}`);
  await writeFile(join(site.root, file), text.replace(from, to));
}

beforeAll(async () => {
  await buildPackage();
  site = await createSite('basic');
  await edit('src/content.config.ts', 'links: {', "optimizeImages: process.env.AAL_OPTIMIZE !== '0',\n      links: {");
  await edit('astro.config.mjs', "site: 'https://fixture.example',", "site: 'https://fixture.example',\n  experimental: { incrementalBuild: true },");
  await edit('src/pages/articles/[slug].astro', 'props: { entry } }', 'props: { entry }, cacheKey: entry.digest }');
  first = await astro(site.root, ['build'], {});
}, 240_000);

afterAll(() => site?.cleanup());

describe('a build with a cold data store', () => {
  it('should keep each processed article in the committed cache, a few kilobytes each', async () => {
    expect(first.code, first.output).toBe(0);
    const files = (await readdir(processedDir())).sort();
    expect(files).toEqual(SLUGS.map((slug) => `${slug}.json.gz`).sort());
    expect(first.output).toContain('3 articles rendered (0 unchanged)');
  });

  const cold = (() => {
    let result: Promise<{ build: RunResult; before: string[]; after: string[]; cardsBefore: Record<string, number>; cardsAfter: Record<string, number> }> | undefined;
    return () =>
      (result ??= (async () => {
        const before = await Promise.all(SLUGS.map(page));
        const cardsBefore = await cardTimes();
        const build = await coldBuild();
        const after = await Promise.all(SLUGS.map(page));
        return { build, before, after, cardsBefore, cardsAfter: await cardTimes() };
      })());
  })();

  it('should take every unchanged article from the processed cache and write the same pages', async () => {
    const { build, before, after } = await cold();
    expect(build.code, build.output).toBe(0);
    expect(build.output).toContain('0 articles rendered, 3 taken already processed from the cache (0 unchanged)');
    expect(after).toEqual(before);
  }, 120_000);

  it('should draw no cover card again: each comes from the cache, untouched', async () => {
    const { build, cardsBefore, cardsAfter } = await cold();
    expect(build.output).toContain('cover cards: 0 drawn, 2 from the cache');
    expect(Object.keys(cardsBefore)).toHaveLength(CARDED.length);
    expect(cardsAfter).toEqual(cardsBefore);
  }, 120_000);

  it('should process a damaged record again, say so, and replace it', async () => {
    await cold();
    const file = join(processedDir(), 'espresso-machines.json.gz');
    await writeFile(file, 'damaged');
    const build = await coldBuild();
    expect(build.code, build.output).toBe(0);
    expect(build.output).toMatch(/espresso-machines\.json\.gz was ignored: it is damaged; the article is processed again/);
    expect(build.output).toContain('1 article rendered, 2 taken already processed from the cache');
    expect((await readFile(file)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  }, 120_000);
});

describe('cover cards', () => {
  it('should draw a 1200×630 PNG card for each article without images, the page\'s og:image, copied into the build', async () => {
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('cover cards: 2 drawn, 0 from the cache');
    for (const slug of CARDED) {
      const url = ogImage(await page(slug));
      expect(url, slug).toMatch(new RegExp(`^https://fixture\\.example/_articles/covers/${slug}-[0-9a-f]{16}\\.png$`));
      const path = new URL(url!).pathname;
      const built = await readFile(join(site.root, 'dist', path));
      expect(imageSize(built)).toMatchObject({ type: 'png', width: 1200, height: 630 });
      expect(await readFile(join(coversDir(), path.split('/').pop()!))).toEqual(built);
    }
  });

  it('should use the first image as the cover of an article that has one', async () => {
    expect(ogImage(await page('how-to-descale-an-espresso-machine'))).toMatch(/^https:\/\/fixture\.example\/_articles\/(?!covers\/)[^/]+$/);
  });
});

describe('images through astro:assets', () => {
  it('should write downloaded images as WebP with width, height, a srcset and their alt text', async () => {
    expect(first.code, first.output).toBe(0);
    const html = await page('how-to-descale-an-espresso-machine');
    const images = html.match(/<img\b[^>]*>/g) ?? [];
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) {
      expect(img).toMatch(/ src="\/_astro\/[^"]+\.webp"/);
      expect(img).toMatch(/ srcset="\/_astro\/[^" ]+\.webp \d+w, \/_astro\/[^" ]+\.webp \d+w"/);
      expect(img).toMatch(/ width="\d+"/);
      expect(img).toMatch(/ height="\d+"/);
      expect(img).toMatch(/ alt="[^"]+"/);
    }
    expect(html).not.toContain('__ASTRO_IMAGE_');
    const files = await readdir(join(site.root, 'dist/_astro'));
    for (const img of images) expect(files).toContain(/ src="\/_astro\/([^"]+)"/.exec(img)![1]);
  });

  it('should serve the downloaded files as they are with optimizeImages: false', async () => {
    const build = await astro(site.root, ['build'], { AAL_OPTIMIZE: '0' });
    expect(build.code, build.output).toBe(0);
    // The option is part of every article's key: each is processed again.
    expect(build.output).toContain('3 articles rendered');
    const html = await page('how-to-descale-an-espresso-machine');
    const images = html.match(/<img\b[^>]*>/g) ?? [];
    expect(images.length).toBeGreaterThan(0);
    for (const img of images) {
      expect(img).toMatch(/ src="\/_articles\/[0-9a-f]+\.png"/);
      expect(img).not.toContain('srcset');
      const src = / src="\/_articles\/([^"]+)"/.exec(img)![1]!;
      expect(existsSync(join(site.root, 'public/_articles', src))).toBe(true);
    }
    // No build here to put the optimized images back: the next case's warm build is that build.
  }, 240_000);
});

describe('incremental builds (Astro 7.2 experimental.incrementalBuild, cacheKey: entry.digest)', () => {
  it('should render only the page of the article that changed', async () => {
    // Also what puts the optimized images back after the optimizeImages: false build above.
    const warm = await astro(site.root, ['build'], {});
    expect(warm.code, warm.output).toBe(0);
    const lock = JSON.parse(await readFile(join(site.root, 'articles.lock.json'), 'utf8'));
    await mkdir(join(site.root, 'articles.edits'), { recursive: true });
    await writeFile(
      join(site.root, 'articles.edits/espresso-machines.html'),
      `<!-- astro-article-loader: hand edit of "espresso-machines" (article ${lock.articles['espresso-machines'].articleId}). -->\n<h1>Espresso machines</h1><p>Fixed by hand.</p>`,
    );
    const build = await astro(site.root, ['build'], {});
    expect(build.code, build.output).toBe(0);
    const line = (slug: string) => build.output.split('\n').find((text) => text.includes(`/articles/${slug}/index.html`)) ?? '';
    expect(line('espresso-machines')).toMatch(/\(\+\d+ ?m?s\)/);
    for (const slug of SLUGS.slice(1)) expect(line(slug)).toMatch(/\((restored|cached)\)/);
    expect(await page('espresso-machines')).toContain('Fixed by hand.');
  }, 240_000);
});
