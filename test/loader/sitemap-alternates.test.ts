// sitemapAlternates: @astrojs/sitemap's serialize, giving each entry the hreflang alternates its built page declares.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitemapAlternates } from '../../src/index.js';
import { alternatesInHtml } from '../../src/loader/sitemap-alternates.js';

const HEAD = `<head><link rel="canonical" href="https://brew.example/de/a/"><link rel="alternate" type="application/rss+xml" href="/rss.xml">
<link rel="alternate" hreflang="en" href="https://brew.example/a/"><link href='https://brew.example/de/a/?x=1&amp;y=2' hreflang=de rel="alternate">
<LINK REL="alternate" HREFLANG="x-default" HREF="https://brew.example/a/"></head>`;

let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'aal-sitemap-'));
  await mkdir(join(outDir, 'de/a'), { recursive: true });
  await writeFile(join(outDir, 'de/a/index.html'), `<html>${HEAD}</html>`);
  await writeFile(join(outDir, 'page.html'), `<html>${HEAD}</html>`);
  await writeFile(join(outDir, 'index.html'), '<html><head><title>Home</title></head></html>');
});

afterAll(async () => {
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
});

describe('alternatesInHtml', () => {
  it('should read every <link rel="alternate" hreflang href>, whatever the order, quotes and case, entities decoded, and no RSS link', () => {
    expect(alternatesInHtml(HEAD)).toEqual([
      { lang: 'en', url: 'https://brew.example/a/' },
      { lang: 'de', url: 'https://brew.example/de/a/?x=1&y=2' },
      { lang: 'x-default', url: 'https://brew.example/a/' },
    ]);
  });
});

describe('sitemapAlternates', () => {
  it("should give an entry its page's alternates, the page found in the directory or the file format, under base", async () => {
    const serialize = sitemapAlternates({ outDir: pathToFileURL(`${outDir}/`), base: '/docs/' });
    const entry = await serialize({ url: 'https://brew.example/docs/de/a/', changefreq: 'weekly' });
    expect(entry).toEqual({ url: 'https://brew.example/docs/de/a/', changefreq: 'weekly', links: alternatesInHtml(HEAD) });
    expect((await serialize({ url: 'https://brew.example/docs/page' })).links).toHaveLength(3);
  });

  it('should keep as it came an entry whose page declares no alternates or has no file', async () => {
    const serialize = sitemapAlternates({ outDir });
    const home = { url: 'https://brew.example/', links: [{ lang: 'en', url: 'https://brew.example/' }] };
    expect(await serialize(home)).toBe(home);
    const custom = { url: 'https://brew.example/not-built/' };
    expect(await serialize(custom)).toBe(custom);
  });
});
