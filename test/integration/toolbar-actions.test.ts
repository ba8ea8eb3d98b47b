// The Articles app's actions in real headless Chromium against `astro dev` (offline: the embedded emulator writes at once, for free),
// and the endpoint they go through: refused from another origin, without the token, or for another host, with the lock file untouched.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astro, buildPackage, createSite, startDevServer, type DevServer, type Site } from './astro-project.js';
import { CHROMIUM, openToolbarBrowser } from './toolbar-browser.js';

const present = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
if (!present && inCi) throw new Error(`Chromium is not installed at ${CHROMIUM}; CI must run the toolbar test (apt-get install -y chromium).`);

const ENDPOINT = '/_astro-article-loader/actions';
const TOKEN_HEADER = 'x-astro-article-loader-token';
const STATE_TIMEOUT = 60_000;

let site: Site;
let server: DevServer;
let browser: Browser;
let page: Page;
/** The token the dev server sent the panel, once the page has received it (see toolbar-browser.ts). */
let tokenOf: () => string | undefined = () => undefined;
/** A page of another origin on this machine, for the browser's cross-origin attempt. */
let elsewhere: Server;

const lockFile = (): string => join(site.root, 'articles.lock.json');
const lockText = (): Promise<string> => readFile(lockFile(), 'utf8');

type Answer = { status: number; json: { ok: boolean; code?: string; message?: string } | undefined; text: string };

/** A POST to the endpoint from Node, with exactly the headers given (Host included). */
function post(headers: Record<string, string>, body: unknown, method = 'POST'): Promise<Answer> {
  const url = new URL(ENDPOINT, server.url);
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { method, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let json: Answer['json'];
        try {
          json = JSON.parse(text) as Answer['json'];
        } catch {
          // Vite's own refusals (a Host it does not serve) are plain text.
        }
        resolvePromise({ status: res.statusCode ?? 0, json, text });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

function row(slug: string) {
  return page.locator(`[data-articles-panel] li.article[data-slug="${slug}"]`);
}

async function openPanel(): Promise<void> {
  await page.locator('astro-dev-toolbar #dev-bar').hover();
  await page.locator('astro-dev-toolbar [data-app-id="astro-article-loader"]').first().click();
  await page.locator('[data-articles-panel]').waitFor({ state: 'visible' });
}

describe.skipIf(!present)('the Articles app’s actions in the dev toolbar', () => {
  beforeAll(async () => {
    await buildPackage();
    site = await createSite('toolbar');
    // The review gate on, in the manifest where the CLI reads it too: the three committed articles wait for review.
    const manifest = join(site.root, 'articles.yaml');
    await writeFile(manifest, `review: true\n${await readFile(manifest, 'utf8')}`);
    server = await startDevServer(site.root);
    elsewhere = createServer((_req, res) => res.end('<!doctype html><title>elsewhere</title>'));
    await new Promise<void>((resolvePromise) => elsewhere.listen(0, '127.0.0.1', resolvePromise));
    ({ browser, page, token: tokenOf } = await openToolbarBrowser());
    await page.goto(`${server.url}/`, { waitUntil: 'load' });
    await openPanel();
    await row('pour-over-coffee').locator('[data-action="edit"]').waitFor({ timeout: STATE_TIMEOUT });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolvePromise) => elsewhere?.close(resolvePromise));
    await site?.cleanup();
  });

  it('should refuse a POST from another origin with 403 and leave the lock file byte-identical', async () => {
    expect(tokenOf()).toMatch(/^[\w-]{32}$/);
    const before = await lockText();
    const host = new URL(server.url).host;
    const body = { action: 'regenerate', collection: 'articles', slug: 'pour-over-coffee', confirm: true };
    for (const origin of ['http://evil.example', `http://localhost:${(elsewhere.address() as AddressInfo).port}`, 'null']) {
      const answer = await post({ host, origin, [TOKEN_HEADER]: tokenOf()! }, body);
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ ok: false, code: 'refused', message: expect.stringMatching(/another origin/) });
    }
    // No Origin at all (not a browser's POST): refused too.
    expect((await post({ host, [TOKEN_HEADER]: tokenOf()! }, body)).status).toBe(403);
    expect(await lockText()).toBe(before);
  });

  it('should refuse a request without the token, with another token, for another host, or not a POST', async () => {
    const before = await lockText();
    const host = new URL(server.url).host;
    const origin = server.url;
    const body = { action: 'edit', collection: 'articles', slug: 'cold-brew-ratio' };
    const noToken = await post({ host, origin }, body);
    expect(noToken.status).toBe(403);
    expect(noToken.json?.message).toMatch(/token/);
    expect((await post({ host, origin, [TOKEN_HEADER]: 'x'.repeat(32) }, body)).status).toBe(403);
    // A DNS name rebound to 127.0.0.1: the socket is local, the Host is not (Vite or the endpoint refuses it).
    const rebound = await post({ host: `attacker.example:${new URL(server.url).port}`, origin: `http://attacker.example:${new URL(server.url).port}`, [TOKEN_HEADER]: tokenOf()! }, body);
    expect(rebound.status).toBe(403);
    expect((await post({ host, origin, [TOKEN_HEADER]: tokenOf()! }, body, 'GET')).status).toBe(405);
    expect(existsSync(join(site.root, 'articles.edits/cold-brew-ratio.html'))).toBe(false);
    expect(await lockText()).toBe(before);
  });

  it('should refuse what a page of another origin sends from the browser, even with the token', async () => {
    const before = await lockText();
    const other = await browser.newPage();
    try {
      await other.goto(`http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`);
      const outcome = await other.evaluate(
        async ({ url, header, secret }) => {
          try {
            const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', [header]: secret }, body: JSON.stringify({ action: 'edit', collection: 'articles', slug: 'cold-brew-ratio' }) });
            return `status ${response.status}`;
          } catch (error) {
            return `blocked: ${String(error)}`;
          }
        },
        { url: `${server.url}${ENDPOINT}`, header: TOKEN_HEADER, secret: tokenOf()! },
      );
      // Either the browser's CORS check stops it, or the request arrives and is refused: never an action.
      expect(outcome).toMatch(/^(?:status 403|blocked: TypeError)/);
    } finally {
      await other.close();
    }
    expect(existsSync(join(site.root, 'articles.edits/cold-brew-ratio.html'))).toBe(false);
    expect(await lockText()).toBe(before);
  });

  it('should write the edit file from Edit, as `edit` does, and show its path', async () => {
    await row('pour-over-coffee').locator('[data-action="edit"]').click();
    const result = row('pour-over-coffee').locator('.actions .result[data-result="done"]');
    await result.waitFor({ timeout: STATE_TIMEOUT });
    expect(await result.textContent()).toBe('Wrote articles.edits/pour-over-coffee.html: change it by hand; it is served instead while the file exists.');
    const edit = await readFile(join(site.root, 'articles.edits/pour-over-coffee.html'), 'utf8');
    expect(edit).toMatch(/^<!-- astro-article-loader: hand edit of "pour-over-coffee" \(article /);
    // The dev server serves it: the row is marked edited, and Edit is no longer offered.
    await row('pour-over-coffee').locator('[data-mark="edited"]').waitFor({ timeout: STATE_TIMEOUT });
    expect(await row('pour-over-coffee').locator('[data-action="edit"]').count()).toBe(0);
  });

  it('should show the estimate for Regenerate, create nothing on Cancel, and create the new article on Confirm', async () => {
    const slug = 'best-coffee-grinders';
    const before = await lockText();
    const previousId = (JSON.parse(before) as { articles: Record<string, { articleId: string }> }).articles[slug]!.articleId;
    const ask = row(slug).locator('.actions .result[data-result="ask"]');
    await row(slug).locator('[data-action="regenerate"]').click();
    await ask.waitFor({ timeout: STATE_TIMEOUT });
    expect(await ask.textContent()).toMatch(/^Regenerate pays for a new article \(≈[\d,]+ words, written free by the embedded emulator\)\. /);
    await ask.locator('[data-action="cancel"]').click();
    await row(slug).locator('.actions .result', { hasText: 'Not regenerated.' }).waitFor();
    expect(await lockText()).toBe(before);

    await row(slug).locator('[data-action="regenerate"]').click();
    await ask.locator('[data-action="confirm"]').click();
    await row(slug).locator('.actions .result', { hasText: 'Regenerating: the current article is served until the new one is finished.' }).waitFor({ timeout: STATE_TIMEOUT });
    // The create went through the engine: a new article id for the slug, its attempt counted up.
    const entry = (JSON.parse(await lockText()) as { articles: Record<string, { articleId: string; attempt: number; status: string }> }).articles[slug]!;
    expect(entry.articleId).not.toBe(previousId);
    expect(entry.attempt).toBe(2);
    await page.locator(`[data-articles-panel] li.article[data-slug="${slug}"][data-state="finished"]`).waitFor({ timeout: STATE_TIMEOUT });
  }, 120_000);

  it('should list an article waiting for review, marked, and approve it from Approve: the lock file records it and the next build publishes it', async () => {
    const slug = 'cold-brew-ratio';
    await page.locator(`[data-articles-panel] li.article[data-slug="${slug}"][data-review="waiting"]`).waitFor({ timeout: STATE_TIMEOUT });
    expect(await row(slug).locator('[data-mark="needs-review"]').textContent()).toBe('needs review');
    const lockBefore = JSON.parse(await lockText()) as { articles: Record<string, { approved?: unknown }> };
    expect(lockBefore.articles[slug]!.approved).toBeUndefined();

    await row(slug).locator('[data-action="approve"]').click();
    await row(slug).locator('.actions .result[data-result="done"]', { hasText: 'Approved: the next build publishes it.' }).waitFor({ timeout: STATE_TIMEOUT });
    // The answer comes after the write: the approval is on the entry, against the output it serves.
    const entry = (JSON.parse(await lockText()) as { articles: Record<string, { output: string; approved?: { output: string } }> }).articles[slug]!;
    expect(entry.approved?.output).toBe(entry.output);
    // The dev server reads the lock file again: the article no longer waits, and Approve is gone.
    await page.locator(`[data-articles-panel] li.article[data-slug="${slug}"][data-review="approved"]`).waitFor({ timeout: STATE_TIMEOUT });
    expect(await row(slug).locator('[data-action="approve"]').count()).toBe(0);
    expect(await row(slug).locator('[data-mark="needs-review"]').count()).toBe(0);

    // The next build: the approved article and the hand-edited one are published; the regenerated one waits again.
    await server.stop();
    const build = await astro(site.root, ['build']);
    expect(build.code, build.output).toBe(0);
    expect(existsSync(join(site.root, 'dist/articles/cold-brew-ratio/index.html'))).toBe(true);
    expect(existsSync(join(site.root, 'dist/articles/pour-over-coffee/index.html'))).toBe(true);
    expect(existsSync(join(site.root, 'dist/articles/best-coffee-grinders/index.html'))).toBe(false);
    expect(build.output).toMatch(/1 article waits for review and is left out of the build: best-coffee-grinders/);
  }, 240_000);
});
