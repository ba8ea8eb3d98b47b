// The toolbar's Regenerate under frozen mode, in real headless Chromium against `astro dev`: the panel says why it will not
// regenerate and offers no Confirm, the endpoint refuses a confirmed create all the same, and the lock file stays byte-identical.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, createSite, startDevServer, type DevServer, type Site } from './astro-project.js';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
if (!present && inCi) throw new Error(`Chromium is not installed at ${CHROMIUM}; CI must run the toolbar test (apt-get install -y chromium).`);

const STATE_TIMEOUT = 60_000;

let site: Site;
let server: DevServer;
let browser: Browser;
let page: Page;
/** The token the dev server sent the panel, read off the toolbar channel as the page receives it. */
let token: string | undefined;

const lockText = (): Promise<string> => readFile(join(site.root, 'articles.lock.json'), 'utf8');
const row = (slug: string) => page.locator(`[data-articles-panel] li.article[data-slug="${slug}"]`);

describe.skipIf(!present)('Regenerate in the dev toolbar, frozen', () => {
  beforeAll(async () => {
    await buildPackage();
    site = await createSite('toolbar');
    const config = join(site.root, 'src/content.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace("manifest: './articles.yaml',", "manifest: './articles.yaml',\n      frozen: true,"));
    server = await startDevServer(site.root);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Astro reloads the page on every store change; the panel must move by the toolbar channel alone, so reloads are dropped.
    await page.routeWebSocket(/.*/, (socket) => {
      const devServer = socket.connectToServer();
      socket.onMessage((message) => devServer.send(message));
      devServer.onMessage((message) => {
        if (typeof message === 'string') token ??= /"actions":\{"token":"([\w-]+)"\}/.exec(message)?.[1];
        if (typeof message === 'string' && message.includes('"full-reload"')) return;
        socket.send(message);
      });
    });
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await page.locator('astro-dev-toolbar #dev-bar').hover();
    await page.locator('astro-dev-toolbar [data-app-id="astro-article-loader"]').first().click();
    await page.locator('[data-articles-panel]').waitFor({ state: 'visible' });
    await row('best-coffee-grinders').locator('[data-action="regenerate"]').waitFor({ timeout: STATE_TIMEOUT });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await site?.cleanup();
  });

  it('should say why it will not regenerate, offer no Confirm, and refuse a confirmed create sent anyway', async () => {
    const slug = 'best-coffee-grinders';
    const before = await lockText();
    await row(slug).locator('[data-action="regenerate"]').click();
    const said = row(slug).locator('.actions .result[data-result="error"]');
    await said.waitFor({ timeout: STATE_TIMEOUT });
    expect(await said.textContent()).toMatch(/^Not regenerated: .*frozen/);
    expect(await row(slug).locator('[data-action="confirm"]').count()).toBe(0);
    // The panel offers no Confirm; a confirmed create sent straight to the endpoint is refused under the process lock.
    expect(token).toBeDefined();
    const answer = await page.evaluate(
      async ({ slug, token }) => {
        const response = await fetch('/_astro-article-loader/actions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-astro-article-loader-token': token },
          body: JSON.stringify({ action: 'regenerate', collection: 'articles', slug, confirm: true }),
        });
        return (await response.json()) as Record<string, unknown>;
      },
      { slug, token: token! },
    );
    expect(answer).toMatchObject({ started: false });
    expect(String(answer.blocked ?? answer.message)).toMatch(/frozen/);
    expect(await lockText()).toBe(before);
  }, 120_000);
});
