// The toolbar's Regenerate under frozen mode and over budget, in real headless Chromium against `astro dev`: the panel says why it
// will not regenerate and offers no Confirm, the endpoint refuses a confirmed create all the same, and the lock file stays byte-identical.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, createSite, startDevServer, type DevServer, type Site } from './astro-project.js';
import { CHROMIUM, openToolbarBrowser } from './toolbar-browser.js';

const present = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
if (!present && inCi) throw new Error(`Chromium is not installed at ${CHROMIUM}; CI must run the toolbar test (apt-get install -y chromium).`);

const STATE_TIMEOUT = 60_000;

/** Each spending rule that refuses a create, as the content config sets it, and what the refusal names. */
const RULES = [
  { name: 'frozen', option: 'frozen: true,', says: /frozen/ },
  { name: 'over budget', option: 'budget: 0,', says: /budget/ },
];

describe.skipIf(!present).each(RULES)('Regenerate in the dev toolbar, $name', ({ option, says }) => {
  let site: Site;
  let server: DevServer;
  let browser: Browser;
  let page: Page;
  /** The token the dev server sent the panel, once the page has received it (see toolbar-browser.ts). */
  let tokenOf: () => string | undefined = () => undefined;

  const lockText = (): Promise<string> => readFile(join(site.root, 'articles.lock.json'), 'utf8');
  const row = (slug: string) => page.locator(`[data-articles-panel] li.article[data-slug="${slug}"]`);

  beforeAll(async () => {
    await buildPackage();
    site = await createSite('toolbar');
    const config = join(site.root, 'src/content.config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace("manifest: './articles.yaml',", `manifest: './articles.yaml',\n      ${option}`));
    server = await startDevServer(site.root);
    ({ browser, page, token: tokenOf } = await openToolbarBrowser());
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
    expect(await said.textContent()).toMatch(/^Not regenerated: /);
    expect(await said.textContent()).toMatch(says);
    expect(await row(slug).locator('[data-action="confirm"]').count()).toBe(0);
    // The panel offers no Confirm; a confirmed create sent straight to the endpoint is refused under the process lock.
    expect(tokenOf()).toBeDefined();
    const answer = await page.evaluate(
      async ({ slug, token }) => {
        const response = await fetch('/_astro-article-loader/actions', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-astro-article-loader-token': token },
          body: JSON.stringify({ action: 'regenerate', collection: 'articles', slug, confirm: true }),
        });
        return (await response.json()) as Record<string, unknown>;
      },
      { slug, token: tokenOf()! },
    );
    expect(answer).toMatchObject({ started: false });
    expect(String(answer.blocked ?? answer.message)).toMatch(says);
    expect(await lockText()).toBe(before);
  }, 120_000);
});
