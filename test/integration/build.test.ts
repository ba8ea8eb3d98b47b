// `astro build` of the toolbar fixture against the emulator: the integration's summary block, read from the build log, against the emulator's ledger.
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, createSite, type Site } from './astro-project.js';

let emulator: RunningEmulator;
let site: Site;
const numbers = new Intl.NumberFormat('en-US');

/** Turns on the service's internal links in the site's content config (the emulator registers the domain). */
async function linkThroughService(): Promise<void> {
  const file = join(site.root, 'src/content.config.ts');
  const text = await readFile(file, 'utf8');
  await writeFile(file, text.replace("emulator: { timing: 'instant' },", "emulator: { timing: 'instant' }, internalLinks: { domainId: 'toolbar-site', siteUrl: 'https://toolbar.example' },"));
}

/** The summary block's rows by label; fails when the log has no block or more than one. */
function summaryOf(output: string): Record<string, string> {
  const lines = output.split('\n');
  const starts = lines.flatMap((line, index) => (/\[astro-article-loader\] build summary$/.test(line) ? [index] : []));
  expect(starts, output).toHaveLength(1);
  const rows: Record<string, string> = {};
  for (const line of lines.slice(starts[0]! + 1)) {
    const row = /^ {2}(\w+) +(.*)$/.exec(line);
    if (row === null) break;
    rows[row[1]!] = row[2]!;
  }
  return rows;
}

async function build(): Promise<{ output: string; summary: Record<string, string> }> {
  const result = await astro(site.root, ['build'], { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
  expect(result.code, result.output).toBe(0);
  return { output: result.output, summary: summaryOf(result.output) };
}

describe('astro build with articles()', () => {
  beforeAll(async () => {
    await buildPackage();
    emulator = await startEmulator({
      timing: 'instant',
      domains: [{ id: 'toolbar-site', pages: [{ url: 'https://toolbar.example/', title: 'Home', keywords: ['coffee'] }] }],
    });
    site = await createSite('toolbar');
  });

  afterAll(async () => {
    await emulator?.stop();
    await site?.cleanup();
  });

  it('should summarise a build served from the committed cache with no request and nothing to commit', async () => {
    const { summary } = await build();
    expect(emulator.requests).toHaveLength(0);
    expect(summary).toEqual({
      articles: '3 articles: 3 reused',
      billed: 'nothing created, nothing billed',
      links: 'no internal-link credits spent',
      // The committed articles' findings: warnings only (none of them an error), counted on every build.
      quality: '0 errors, 8 warnings in 3 articles (`astro-article-loader check` lists them)',
      service: 'no requests: every article came from the cache',
    });
  }, 180_000);

  it('should count the new articles, the words billed with their image words, the link credits and the requests as the emulator recorded them', async () => {
    await linkThroughService();
    await appendFile(
      join(site.root, 'articles.yaml'),
      '  - french press grind size\n  - keyword: espresso tamping\n    articleLength: shorter\n    multimediaOption: images\n    maxImages: 2\n',
    );
    const before = emulator.ledger.totals;
    const { summary } = await build();
    const after = emulator.ledger.totals;
    expect(after.creations - before.creations).toBe(2);
    expect(after.imageWords - before.imageWords).toBeGreaterThan(0);
    expect(summary.articles).toBe('5 articles: 3 reused, 2 finished');
    expect(summary.billed).toBe(
      `2 new articles created, ${numbers.format(after.billedWords - before.billedWords)} words billed (${numbers.format(after.imageWords - before.imageWords)} of them for images)`,
    );
    // Every article is linked once when internal links are turned on: the three cached ones and the two new ones.
    expect(after.linkCredits - before.linkCredits).toBe(5);
    expect(summary.links).toBe('5 internal-link credits spent');
    expect(summary.service).toMatch(new RegExp(`^${emulator.requests.length} requests, (?:[\\d a-z]+ waiting for articles to be written|no waiting)$`));
    expect(summary.commit).toBe('articles.lock.json and articles.cache/ changed: commit them, so the next build (and CI) reuses these articles');
  }, 180_000);

  it('should count an article the service failed as created, failed and not billed', async () => {
    const before = emulator.ledger.totals;
    const requestsBefore = emulator.requests.length;
    emulator.setFaults({ failedArticles: { share: 1, message: 'The writing model stopped.' } });
    await appendFile(join(site.root, 'articles.yaml'), '  - milk steaming temperature\n');
    try {
      const { summary } = await build();
      const after = emulator.ledger.totals;
      expect(after.creations - before.creations).toBe(1);
      expect(after.failed - before.failed).toBe(1);
      expect(after.billedWords).toBe(before.billedWords);
      expect(summary.articles).toBe('6 articles: 5 reused, 1 failed');
      expect(summary.billed).toBe('1 new article created (1 failed, not billed), nothing billed');
      // Its page is not built, so nothing is linked; the others' links come from the cache.
      expect(after.linkCredits).toBe(before.linkCredits);
      expect(summary.links).toBe('no internal-link credits spent');
      expect(summary.service).toMatch(new RegExp(`^${emulator.requests.length - requestsBefore} requests`));
    } finally {
      emulator.setFaults(undefined);
    }
  }, 180_000);
});
