// The dev server in a child process, driven by headless Chromium: an article page, then a manifest edit whose
// placeholder is replaced by the finished article without restarting the server.
//
// The emulator is paused while the new keyword is queued, so the placeholder is seen for certain, not by timing.
import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildPackage, createSite, REPO, startDevServer, type DevServer, type Site } from './astro-site.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(REPO, 'test-artifacts');
const present = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false';

if (!present && inCi) {
  throw new Error(`Chromium is not installed at ${CHROMIUM}; CI must run the dev-server test (apt-get install -y chromium).`);
}
if (!present) {
  console.warn(`Skipping the dev-server browser test: no Chromium at ${CHROMIUM} (install it with apt-get install -y chromium).`);
}

let emulator: RunningEmulator;
let site: Site;
let server: DevServer;
let browser: Browser;
let page: Page;

/** Reloads until the page's body reports `status` (the dev server re-renders from the store on each request). */
async function openUntilStatus(path: string, status: string): Promise<void> {
  let seen: string | null = null;
  // A bound on attempts, not a speed requirement: it turns a hang into a message with the server's log.
  for (let attempt = 0; attempt < 400; attempt++) {
    const response = await page.goto(server.url + path, { waitUntil: 'domcontentloaded' });
    seen = response?.ok() ? await page.locator('body').getAttribute('data-status') : `HTTP ${response?.status()}`;
    if (seen === status) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`${path} never reached status "${status}" (last: ${seen}). Dev server log:\n${server.output()}`);
}

describe.skipIf(!present)('astro dev with articleLoader', () => {
  beforeAll(async () => {
    await buildPackage();
    emulator = await startEmulator({ timing: 'instant' });
    site = await createSite('basic');
    server = await startDevServer(site.root, { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    page = await browser.newPage();
    await mkdir(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await emulator?.stop();
    await site?.cleanup();
  });

  it('should serve an article page with its table of contents and content', async () => {
    await openUntilStatus('/articles/espresso-machines/', 'finished');
    const tocTargets = await page.locator('nav.toc a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(tocTargets.length).toBeGreaterThan(0);
    for (const href of tocTargets) expect(await page.locator(`article [id="${href!.slice(1)}"]`).count(), href!).toBe(1);
    expect(await page.locator('article h1').textContent()).toMatch(/espresso machines/i);
    expect(await page.locator('article p').count()).toBeGreaterThan(2);
  }, 120_000);

  it('should show a placeholder for a keyword added to the manifest, then the finished article', async () => {
    emulator.pause();
    await appendFile(join(site.root, 'articles.yaml'), '  - milk frothers\n');
    await openUntilStatus('/articles/milk-frothers/', 'queued');
    expect(await page.locator('.article-placeholder').textContent()).toContain('“milk frothers” is queued');
    await page.screenshot({ path: join(ARTIFACTS, 'loader-dev-placeholder.png'), fullPage: true });

    emulator.resume();
    await openUntilStatus('/articles/milk-frothers/', 'finished');
    expect(await page.locator('.article-placeholder').count()).toBe(0);
    expect(await page.locator('nav.toc a').count()).toBeGreaterThan(0);
    expect(await page.locator('article h1').textContent()).toMatch(/milk frothers/i);
    await page.screenshot({ path: join(ARTIFACTS, 'loader-dev-article.png'), fullPage: true });
    expect(emulator.ledger.creationsForKeyword('milk frothers')).toHaveLength(1);
    expect(server.output()).toContain('articles.yaml changed; syncing');
    // The loader's own lock and cache writes never start another sync.
    expect(server.output()).not.toContain('articles.lock.json changed');
  }, 120_000);
});
