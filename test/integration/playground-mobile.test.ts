// Every playground page at a 390 px phone viewport and at 1280 px, in real headless Chromium over a static server on
// 127.0.0.1: no horizontal overflow (long source URLs wrap). Screenshots of one article at both widths go to test-artifacts/.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../loader/astro-site.js';
import { builtPlayground } from './playground-site.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPO, 'test-artifacts');
const present = existsSync(CHROMIUM);
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.png': 'image/png', '.webp': 'image/webp', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.xml': 'application/xml' };

let root: string;
let server: Server;
let origin: string;
let browser: Browser;
let pages: string[];

async function htmlPages(dir: string, base = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found = await Promise.all(entries.map((entry) => (entry.isDirectory() ? htmlPages(join(dir, entry.name), `${base}/${entry.name}`) : Promise.resolve(entry.name === 'index.html' ? [`${base}/`] : []))));
  return found.flat();
}

describe.skipIf(!present)('the playground on a phone', () => {
  beforeAll(async () => {
    // Built once per run with playground.test.ts, which checks the build itself.
    const built = await builtPlayground();
    expect(built.build.code, built.build.output).toBe(0);
    root = built.root;
    const dist = join(root, 'dist');
    pages = await htmlPages(dist);
    server = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      const file = join(dist, path.endsWith('/') ? `${path}index.html` : path);
      readFile(file).then(
        (body) => response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
        () => response.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    await mkdir(ARTIFACTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('should not overflow horizontally at 390 px on any page', async () => {
    expect(pages.length).toBeGreaterThan(5);
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const overflowing: string[] = [];
    for (const path of pages) {
      await page.goto(origin + path, { waitUntil: 'load' });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) overflowing.push(`${path}: ${width} px`);
    }
    await page.goto(`${origin}/articles/how-to-brew-pour-over-coffee/`, { waitUntil: 'load' });
    await page.screenshot({ path: join(ARTIFACTS, 'playground-article-390.png'), fullPage: true });
    await page.close();
    expect(overflowing).toEqual([]);
  }, 120_000);

  it('should lay an article out at 1280 px without overflow', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/articles/how-to-brew-pour-over-coffee/`, { waitUntil: 'load' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-article-1280.png'), fullPage: true });
    await page.close();
  }, 60_000);
});
