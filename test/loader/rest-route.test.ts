// Which page a collection with nested ids would stop Astro on: read from the page files, before Astro renders them.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { restRouteAdvice } from '../../src/loader/rest-route.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A pages folder with these files (path → source). */
async function pages(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'aal-pages-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

const QUICK_START = "const all = await getCollection('articles');\nreturn all.map((entry) => ({ params: { slug: entry.id }, props: { entry } }));";
const NESTED = ['en/coffee', 'ar/قهوة'];

describe('restRouteAdvice', () => {
  it('should name the one-segment page that puts the ids in its parameter', async () => {
    const dir = await pages({ 'articles/[slug].astro': QUICK_START, 'index.astro': "getCollection('articles')" });
    expect(await restRouteAdvice(NESTED, 'articles', dir)).toEqual({ kind: 'one-segment', file: join(dir, 'articles/[slug].astro'), param: 'slug' });
  });

  it('should name that page even beside a rest page of the same collection', async () => {
    const dir = await pages({ 'articles/[slug].astro': QUICK_START, 'data/[...slug].astro': QUICK_START });
    expect(await restRouteAdvice(NESTED, 'articles', dir)).toMatchObject({ kind: 'one-segment', param: 'slug' });
  });

  it('should say nothing when a rest page reads the collection, or no id has a folder', async () => {
    const dir = await pages({ 'articles/[...slug].astro': QUICK_START });
    expect(await restRouteAdvice(NESTED, 'articles', dir)).toBeUndefined();
    const quickStart = await pages({ 'articles/[slug].astro': QUICK_START });
    expect(await restRouteAdvice(['coffee', 'قهوة'], 'articles', quickStart)).toBeUndefined();
  });

  it('should leave a one-segment page that does not put whole ids in its parameters (tags, a part of the id) alone', async () => {
    const dir = await pages({
      'tags/[tag].astro': "const all = await getCollection('articles');\nreturn tags(all).map((tag) => ({ params: { tag } }));",
      '[lang]/articles/[slug].astro': "return (await getCollection('articles')).map((entry) => ({ params: { lang: entry.data.locale, slug: entry.id.split('/')[1] } }));",
    });
    expect(await restRouteAdvice(NESTED, 'articles', dir)).toEqual({ kind: 'no-page-found' });
  });

  it('should take the parameter the id fills, when the page has several', async () => {
    const dir = await pages({ '[lang]/[post].astro': "return (await getCollection('articles')).map((entry) => ({ params: { post: entry.id, lang: 'x' } }));" });
    expect(await restRouteAdvice(NESTED, 'articles', dir)).toMatchObject({ kind: 'one-segment', param: 'post' });
  });

  it("should look only at the pages that read this collection, and say when it finds none", async () => {
    const dir = await pages({ 'guides/[slug].astro': QUICK_START.replace("'articles'", "'guides'") });
    expect(await restRouteAdvice(NESTED, 'articles', dir)).toEqual({ kind: 'no-page-found' });
    expect(await restRouteAdvice(NESTED, 'articles', join(dir, 'missing'))).toEqual({ kind: 'no-page-found' });
  });
});
