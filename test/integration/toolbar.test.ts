// The dev toolbar's Articles app in real headless Chromium, against `astro dev` in a child process and an emulator the test controls.
//
// States are made certain, not waited out: the emulator is paused while an article must stay queued,
// writes for ten minutes while it must be seen writing, and is switched to instant to let it finish.
//
// Astro reloads every page whenever the content store changes, which the loader does as placeholders
// progress. The page's dev-server socket drops those `full-reload` messages (counted in
// `reloadsSuppressed`), so the panel can only move by what the toolbar channel tells it; one test
// lets a reload happen to check the panel comes back open.
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator, type TimingOptions } from '../../src/emulator/index.js';
import { ARTIFACTS, buildPackage, createSite, startDevServer, type DevServer, type Site } from './astro-project.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';

if (!present && inCi) {
  throw new Error(`Chromium is not installed at ${CHROMIUM}; CI must run the toolbar test (apt-get install -y chromium).`);
}
if (!present) {
  console.warn(`Skipping the dev toolbar browser test: no Chromium at ${CHROMIUM} (install it with apt-get install -y chromium).`);
}

/** Long enough that an article being written is still being written when the panel is looked at. */
const WRITING: TimingOptions = { queueDelayMs: 0, writingMs: 10 * 60_000 };
/** An article's way through the service takes a few polls (the first one 5 s after the create, later ones up to 30 s apart). */
const STATE_TIMEOUT = 90_000;

let emulator: RunningEmulator;
let site: Site;
let server: DevServer;
let browser: Browser;
let page: Page;
let reloadsSuppressed = 0;
let loads = 0;

function row(slug: string): Locator {
  return page.locator(`[data-articles-panel] li.article[data-slug="${slug}"]`);
}

async function waitForState(slug: string, state: string): Promise<Locator> {
  const located = page.locator(`[data-articles-panel] li.article[data-slug="${slug}"][data-state="${state}"]`);
  await located.waitFor({ timeout: STATE_TIMEOUT });
  return located;
}

async function addKeyword(line: string): Promise<void> {
  await appendFile(join(site.root, 'articles.yaml'), `  - ${line}\n`);
}

/** Opens the app as a user does: over the toolbar, then its button. */
async function openPanel(): Promise<void> {
  await page.locator('astro-dev-toolbar #dev-bar').hover();
  await page.locator('astro-dev-toolbar [data-app-id="astro-article-loader"]').first().click();
  await page.locator('[data-articles-panel]').waitFor({ state: 'visible' });
}

describe.skipIf(!present)('the Articles app in the dev toolbar', () => {
  beforeAll(async () => {
    await buildPackage();
    emulator = await startEmulator({ timing: WRITING });
    site = await createSite('toolbar');
    // A draft and a scheduled article, which the dev server shows and the panel marks: the site's own fields, so the
    // requests (and the committed lock file) are unchanged.
    const manifest = join(site.root, 'articles.yaml');
    await writeFile(
      manifest,
      (await readFile(manifest, 'utf8'))
        .replace('    articleType: listicle\n', '    articleType: listicle\n    publishDate: 2099-01-01\n')
        .replace('  - keyword: cold brew ratio\n    articleLength: short\n', '  - keyword: cold brew ratio\n    articleLength: short\n    draft: true\n'),
    );
    server = await startDevServer(site.root, { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    await page.routeWebSocket(/.*/, (socket) => {
      const devServer = socket.connectToServer();
      socket.onMessage((message) => devServer.send(message));
      devServer.onMessage((message) => {
        if (typeof message === 'string' && message.includes('"full-reload"')) reloadsSuppressed += 1;
        else socket.send(message);
      });
    });
    page.on('load', () => (loads += 1));
    await mkdir(ARTIFACTS, { recursive: true });
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await openPanel();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await emulator?.stop();
    await site?.cleanup();
  });

  it('should list every manifest entry with its state and a link to its page', async () => {
    for (const slug of ['pour-over-coffee', 'best-coffee-grinders', 'cold-brew-ratio']) {
      await waitForState(slug, 'reused');
      expect(await row(slug).locator('a.keyword').getAttribute('href')).toBe(`/articles/${slug}/`);
      expect(await row(slug).locator('.words').textContent()).toBe('cached');
    }
    expect(await page.locator('[data-articles-panel] li.article').count()).toBe(3);
    expect(await row('best-coffee-grinders').locator('a.keyword').textContent()).toBe('best coffee grinders');
  });

  it("should list each article's quality findings under its row, as many as the build summary counts", async () => {
    // The committed articles' findings: 8 warnings in 3 articles (test/integration/build.test.ts reads the same in the summary).
    // The entries carry only their counts: the panel has the findings from the loader's findings book.
    const findings = page.locator('[data-articles-panel] li.article .findings li');
    await findings.first().waitFor({ timeout: STATE_TIMEOUT });
    expect(await findings.count()).toBe(8);
    expect(await page.locator('[data-articles-panel] li.article .findings li.warning').count()).toBe(8);
    for (const item of await findings.all()) expect(await item.getAttribute('data-finding')).toBe(await item.locator('code').textContent());
  });

  it('should mark a draft and a scheduled article, which the dev server shows', async () => {
    expect(await row('cold-brew-ratio').locator('[data-mark="draft"]').count()).toBe(1);
    expect(await row('best-coffee-grinders').locator('[data-mark="scheduled"]').count()).toBe(1);
    expect(await row('pour-over-coffee').locator('[data-mark]').count()).toBe(0);
    // Its date, given or scheduled, on the row; none for an article without one.
    expect(await row('best-coffee-grinders').locator('time.publish-date').getAttribute('datetime')).toBe('2099-01-01T00:00:00.000Z');
    expect(await row('best-coffee-grinders').locator('time.publish-date').textContent()).toMatch(/^goes live .*2099/);
    expect(await row('pour-over-coffee').locator('time.publish-date').count()).toBe(0);
  });

  it('should show the service mode, the budget and the totals in the header', async () => {
    expect(await page.locator('[data-articles-panel] [data-overview]').textContent()).toBe('articles.yaml · 3 articles · 0 requests to the service');
    expect(await page.locator('[data-articles-panel] [data-stat="reused"] b').textContent()).toBe('3');
    expect(await page.locator('[data-articles-panel] [data-badge="mode"]').textContent()).toBe('service');
    expect(await page.locator('[data-articles-panel] [data-badge="budget"]').textContent()).toBe('budget 25');
    expect(await page.locator('[data-articles-panel] [data-badge="frozen"]').count()).toBe(0);
  });

  it('should follow a new keyword from queued through writing to finished without a page reload', async () => {
    const loadsBefore = loads;
    const suppressedBefore = reloadsSuppressed;
    emulator.pause();
    await addKeyword('chemex brewing');
    await waitForState('chemex-brewing', 'queued');

    emulator.resume();
    const writing = await waitForState('chemex-brewing', 'processing');
    expect(await writing.locator('.progress .text').textContent()).toMatch(/\S/);
    expect(await writing.locator('.progress .text').textContent()).not.toMatch(/^(?:Writing…|Waiting for the service)/);
    expect(Number(await writing.locator('[role="progressbar"]').getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(0);
    expect(await writing.locator('.words').textContent()).toMatch(/^≈[\d,]+ words$/);

    emulator.setTiming('instant');
    try {
      const finished = await waitForState('chemex-brewing', 'finished');
      expect(await finished.locator('a.keyword').getAttribute('href')).toBe('/articles/chemex-brewing/');
      // Once finished, the words recorded in the lock file replace the estimate: what the service billed, no ≈.
      const [creation] = emulator.ledger.creationsForKeyword('chemex brewing');
      const billed = new Intl.NumberFormat('en-US').format(creation!.words + creation!.imageWords);
      await finished.locator('.words', { hasText: new RegExp(`^${billed} words$`) }).waitFor({ timeout: STATE_TIMEOUT });
      expect(await page.locator('[data-articles-panel] [data-stat="words"] b').textContent()).toBe(billed);
    } finally {
      emulator.setTiming(WRITING);
    }
    expect(loads).toBe(loadsBefore);
    // Astro did ask for reloads meanwhile: the states above came over the toolbar channel alone.
    expect(reloadsSuppressed).toBeGreaterThan(suppressedBefore);
    expect(emulator.ledger.creationsForKeyword('chemex brewing')).toHaveLength(1);
  }, 240_000);

  it('should reopen after the page reloads, with every entry', async () => {
    await page.reload({ waitUntil: 'load' });
    await page.locator('[data-articles-panel]').waitFor({ state: 'visible' });
    await waitForState('chemex-brewing', 'finished');
    expect(await page.locator('[data-articles-panel] li.article').count()).toBe(4);
  });

  it('should show an article the service failed, with its error', async () => {
    emulator.setFaults({ failedArticles: { share: 1, code: 'generation_failed', message: 'The writing model stopped before the article was complete.' } });
    emulator.setTiming('instant');
    try {
      await addKeyword('siphon coffee maker');
      const failed = await waitForState('siphon-coffee-maker', 'failed');
      expect(await failed.locator('.detail.error').textContent()).toBe(
        'the service reported the article failed: The writing model stopped before the article was complete. (generation_failed)',
      );
    } finally {
      emulator.setFaults(undefined);
      emulator.setTiming(WRITING);
    }
  }, 240_000);

  it('should look the same on light and dark pages, and save screenshots of the panel', async () => {
    // Every state at once: one article being written, one queued behind a paused service.
    await addKeyword('turkish coffee');
    await waitForState('turkish-coffee', 'processing');
    emulator.pause();
    await addKeyword('cortado ratio');
    await waitForState('cortado-ratio', 'queued');

    const looks: Record<string, string>[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      looks.push(
        await page.locator('[data-articles-panel]').evaluate((panel) => {
          const link = panel.querySelector('a.keyword')!;
          const words = panel.querySelector('.words')!;
          return {
            colorScheme: getComputedStyle(panel).colorScheme,
            keyword: getComputedStyle(link).color,
            words: getComputedStyle(words).color,
            heading: getComputedStyle(panel.querySelector('h1')!).color,
          };
        }),
      );
      // Over the toolbar, so it shows expanded with the app's button active, as a user sees it.
      await page.locator('astro-dev-toolbar #dev-bar').hover();
      await page.waitForFunction(() => {
        const bar = document.querySelector('astro-dev-toolbar')?.shadowRoot?.querySelector('#dev-bar');
        return bar !== null && bar !== undefined && bar.getAnimations({ subtree: true }).length === 0 && bar.getBoundingClientRect().bottom <= window.innerHeight;
      });
      await page.screenshot({ path: join(ARTIFACTS, scheme === 'light' ? 'toolbar-panel.png' : 'toolbar-panel-dark.png') });
    }
    expect(looks[0]).toEqual(looks[1]);
    expect(looks[0]!.colorScheme).toBe('dark');
    emulator.resume();
  }, 240_000);
});
