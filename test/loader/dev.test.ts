// The dev server in a child process, driven by headless Chromium: an article page, then a manifest edit whose
// placeholder is replaced by the finished article without restarting the server.
//
// The emulator is paused while the new keyword is queued, so the placeholder is seen for certain, not by timing.
//
// The page runs without JavaScript: what is checked is the HTML the dev server renders from the store. With
// scripts on, Vite's client reloads the page whenever the store changes, and the dev toolbar animates; either
// can hold a screenshot past its timeout on a loaded machine (it did once in CI). The toolbar has its own
// browser test (test/integration/toolbar.test.ts).
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildPackage, createSite, REPO, startDevServer, type DevServer, type Site } from './astro-site.js';
import { parsePage, type BuiltPage } from './built-html.js';

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

/** Wakes the one wait for the emulator's requests (set by untilRequests). */
let requestEnded = (): void => {};

/** Resolves once `condition` holds, looked at again as each request to the emulator ends: no poll, no bound but the test's. */
async function untilRequests(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => (requestEnded = resolve));
}

/**
 * Reloads until the page's body reports `status` (the dev server re-renders from the store on each
 * request) and returns the page as Chromium received it.
 */
async function openUntilStatus(path: string, status: string): Promise<BuiltPage> {
  let seen: string | undefined;
  // A bound on attempts, not a speed requirement: it turns a hang into a message with the server's log.
  for (let attempt = 0; attempt < 400; attempt++) {
    const response = await page.goto(server.url + path, { waitUntil: 'domcontentloaded' });
    const received = response?.ok() ? parsePage(await response.text()) : undefined;
    seen = received === undefined ? `HTTP ${response?.status()}` : received.status;
    if (received !== undefined && seen === status) return received;
    await page.waitForTimeout(250);
  }
  throw new Error(`${path} never reached status "${status}" (last: ${seen}). Dev server log:\n${server.output()}`);
}

describe.skipIf(!present)('astro dev with articleLoader', () => {
  beforeAll(async () => {
    await buildPackage();
    emulator = await startEmulator({ timing: 'instant', onRequest: () => requestEnded() });
    site = await createSite('basic');
    server = await startDevServer(site.root, { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    page = await browser.newPage({ javaScriptEnabled: false });
    await mkdir(ARTIFACTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await emulator?.stop();
    await site?.cleanup();
  });

  it('should serve an article page with its table of contents and content', async () => {
    const article = await openUntilStatus('/articles/espresso-machines/', 'finished');
    expect(article.toc.length).toBeGreaterThan(0);
    for (const href of article.toc) expect(article.headingIds, href).toContain(href.slice(1));
    expect(article.heading).toMatch(/espresso machines/i);
    expect(article.paragraphs).toBeGreaterThan(2);
    expect(article.executable).toEqual([]);
  }, 120_000);

  it('should show a placeholder for a keyword added to the manifest, then the finished article', async () => {
    emulator.pause();
    await appendFile(join(site.root, 'articles.yaml'), '  - milk frothers\n');
    const placeholder = await openUntilStatus('/articles/milk-frothers/', 'queued');
    expect(placeholder.placeholder).toContain('“milk frothers” is queued');
    await page.screenshot({ path: join(ARTIFACTS, 'loader-dev-placeholder.png'), fullPage: true });

    emulator.resume();
    const finished = await openUntilStatus('/articles/milk-frothers/', 'finished');
    expect(finished.placeholder).toBeUndefined();
    expect(finished.toc.length).toBeGreaterThan(0);
    expect(finished.heading).toMatch(/milk frothers/i);
    await page.screenshot({ path: join(ARTIFACTS, 'loader-dev-article.png'), fullPage: true });
    expect(emulator.ledger.creationsForKeyword('milk frothers')).toHaveLength(1);
    expect(server.output()).toContain('articles.yaml changed; syncing');
    // The loader's own lock and cache writes never start another sync.
    expect(server.output()).not.toContain('articles.lock.json changed');
  }, 120_000);

  it('should keep serving the earlier article while a changed request is written, as a build does', async () => {
    const manifest = join(site.root, 'articles.yaml');
    const before = await openUntilStatus('/articles/espresso-machines/', 'finished');
    emulator.pause();
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('  - keyword: espresso machines\n    articleLength: short', '  - keyword: espresso machines\n    articleLength: long'));
    // The dev server sends the new create (the emulator holds it, paused): waited for as it arrives, not for 20 s at most.
    await untilRequests(() => emulator.ledger.creationsForKeyword('espresso machines').length >= 2);
    expect(emulator.ledger.creationsForKeyword('espresso machines'), server.output()).toHaveLength(2);
    for (let look = 0; look < 4; look++) {
      const shown = await openUntilStatus('/articles/espresso-machines/', 'finished');
      expect(shown.placeholder).toBeUndefined();
      expect(shown.heading).toBe(before.heading);
      await page.waitForTimeout(300);
    }
    emulator.resume();
  }, 120_000);

  it('should sync again when another process changes the lock file while articles are still being written', async () => {
    const lockFile = join(site.root, 'articles.lock.json');
    emulator.pause();
    const from = server.output().length;
    await appendFile(join(site.root, 'articles.yaml'), '  - cold brew\n');
    // The background wait is running: the new article is queued, and the emulator holds its polls.
    await openUntilStatus('/articles/cold-brew/', 'queued');
    await server.waitForLine(/articles\.yaml changed; syncing/, from);
    // What a terminal's `approve` or a `git pull` does meanwhile: the same lock file, written by someone else.
    const after = server.output().length;
    const text = await readFile(lockFile, 'utf8');
    await writeFile(lockFile, `${JSON.stringify(JSON.parse(text), null, 4)}\n`);
    await server.waitForLine(/articles\.lock\.json changed; syncing/, after);
    emulator.resume();
    await openUntilStatus('/articles/cold-brew/', 'finished');
    expect(emulator.ledger.creationsForKeyword('cold brew')).toHaveLength(1);
  }, 120_000);
});
