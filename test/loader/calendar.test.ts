// The content calendar in real `astro build`s on a fixed clock (ARTICLE_LOADER_NOW): a build publishes exactly the entries whose date has come, entries inserted in the middle and a reordering leave every recorded date where it was, and a build never pays for a refresh, however old its articles.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { astro, buildPackage, childEnv, createSite, REPO, type RunResult, type Site } from './astro-site.js';

const SCHEDULE = '  schedule: { start: 2026-12-01, every: 2d, at: "09:00", timezone: Europe/Berlin }';
const FIRST = ['alpha coffee grinders', 'bravo pour over kettles', 'charlie french press', 'delta milk frothers'];
/** Two new entries in the middle, and the old ones in another order. */
const SECOND = ['delta milk frothers', 'new one in the middle', 'alpha coffee grinders', 'another new one', 'charlie french press', 'bravo pour over kettles'];
/** A given date wins over the schedule, and is long past. */
const GIVEN = ['  - keyword: echo cold brew', '    publishDate: 2020-01-01'];
const BEFORE_START = '2026-11-20T00:00:00Z';
const DECEMBER_4TH = '2026-12-04T12:00:00Z';
/** Two days past the machine's clock: the articles, written today by the emulator, are past their refreshAfter (1d) then, whatever today is. */
const TWO_DAYS_ON = new Date(Date.now() + 2 * 86_400_000).toISOString();

let emulator: RunningEmulator;
let site: Site;
let first: RunResult;
let second: RunResult;
let firstLock: { schedule?: Record<string, string> };
let secondLock: { schedule?: Record<string, string> };
let planBefore: { calendar: { rows: { slug: string; source: string; live: boolean; publishDate: string }[] } };
let planTwoDaysOn: { refresh: { due: { slug: string }[] } };
const creations: number[] = [];
let lockUnchangedByPlan: boolean;
let frozenSync: number | null;
let publishedOnDecember4th: string[];
let withDrafts: RunResult;

// refreshAfter: 1d — two days past the machine's clock, the articles written today are past it.
const manifest = (keywords: readonly string[]) => ['defaults:', '  articleLength: short', '  refreshAfter: 1d', SCHEDULE, 'articles:', ...keywords.map((keyword) => `  - ${keyword}`), ...GIVEN, ''].join('\n');
const env = (now: string) => ({ ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey, ARTICLE_LOADER_NOW: now });
const page = (slug: string) => join(site.root, 'dist/articles', slug, 'index.html');
const lockOf = async () => JSON.parse(await readFile(join(site.root, 'articles.lock.json'), 'utf8')) as { schedule?: Record<string, string> };
/** A page that shows the entry's publishDate, so the build's HTML says what entry.data carries. */
const PAGE = `---
import { getCollection } from 'astro:content';
export async function getStaticPaths() {
  return (await getCollection('articles')).map((entry) => ({ params: { slug: entry.id }, props: { entry } }));
}
const { entry } = Astro.props;
---
<html><body data-publish-date={entry.data.publishDate?.toISOString() ?? 'none'}><h1>{entry.data.title}</h1></body></html>
`;

const CONFIG = `import { defineCollection } from 'astro:content';
import { ARTICLES_API_KEY, ARTICLES_API_URL } from 'astro:env/server';
import { articleLoader } from 'astro-article-loader';

export const collections = {
  articles: defineCollection({
    loader: articleLoader({ manifest: './articles.yaml', apiKey: ARTICLES_API_KEY, baseUrl: ARTICLES_API_URL, pollIntervalMs: 20, drafts: process.env.CALENDAR_DRAFTS === '1' }),
  }),
};
`;

function cli(args: string[], extra: Record<string, string>): { stdout: string; code: number | null } {
  const result = spawnSync(process.execPath, [join(REPO, 'dist/cli/index.js'), ...args], { cwd: site.root, env: childEnv(extra), encoding: 'utf8' });
  return { stdout: result.stdout, code: result.status };
}

const published = async (): Promise<string[]> => (await readdir(join(site.root, 'dist/articles'))).sort();

beforeAll(async () => {
  await buildPackage();
  emulator = await startEmulator({ timing: 'instant' });
  site = await createSite('basic');
  await writeFile(join(site.root, 'src/pages/articles/[slug].astro'), PAGE);
  await writeFile(join(site.root, 'src/content.config.ts'), CONFIG);
  await writeFile(join(site.root, 'articles.yaml'), manifest(FIRST));
  first = await astro(site.root, ['build'], env(BEFORE_START));
  creations.push(emulator.ledger.creations.length);
  firstLock = await lockOf();
  await writeFile(join(site.root, 'articles.yaml'), manifest(SECOND));
  const lockText = await readFile(join(site.root, 'articles.lock.json'), 'utf8');
  planBefore = JSON.parse(cli(['plan', '--json'], env(DECEMBER_4TH)).stdout) as typeof planBefore;
  planTwoDaysOn = JSON.parse(cli(['plan', '--json'], env(TWO_DAYS_ON)).stdout) as typeof planTwoDaysOn;
  frozenSync = cli(['sync', '--json'], { ...env(DECEMBER_4TH), CI: '1' }).code;
  lockUnchangedByPlan = lockText === (await readFile(join(site.root, 'articles.lock.json'), 'utf8'));
  second = await astro(site.root, ['build'], env(DECEMBER_4TH));
  creations.push(emulator.ledger.creations.length);
  secondLock = await lockOf();
  publishedOnDecember4th = await published();
  // Drafts on shows every entry whatever the date; built two days on, when every written article is due for a refresh.
  withDrafts = await astro(site.root, ['build'], { ...env(TWO_DAYS_ON), CALENDAR_DRAFTS: '1' });
  creations.push(emulator.ledger.creations.length);
}, 360_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('the content calendar in astro build', () => {
  it('should give the scheduled entries their slots in manifest order, record them in the lock file, and publish none before the start', async () => {
    expect(first.code, first.output).toBe(0);
    expect(first.output).toContain('4 scheduled dates given and recorded in articles.lock.json');
    expect(firstLock.schedule).toEqual({
      'alpha-coffee-grinders': '2026-12-01T08:00:00.000Z',
      'bravo-pour-over-kettles': '2026-12-03T08:00:00.000Z',
      'charlie-french-press': '2026-12-05T08:00:00.000Z',
      'delta-milk-frothers': '2026-12-07T08:00:00.000Z',
    });
    // Created ahead (the articles are ready on their day), left out of this build; the given past date is published.
    expect(emulator.ledger.creationsForKeyword('delta milk frothers')).toHaveLength(1);
    expect(first.output).toContain('4 draft or future-dated articles left out of the build');
  });

  it('should show the new entries in plan as proposed, from the latest given date, and write nothing, nor a frozen sync', () => {
    expect(lockUnchangedByPlan).toBe(true);
    expect(frozenSync).toBe(3);
    const rows = Object.fromEntries(planBefore.calendar.rows.map((row) => [row.slug, row]));
    expect(rows['new-one-in-the-middle']).toMatchObject({ source: 'proposed', live: false, publishDate: '2026-12-09T08:00:00.000Z' });
    expect(rows['alpha-coffee-grinders']).toMatchObject({ source: 'recorded', live: true });
    expect(rows['echo-cold-brew']).toMatchObject({ source: 'publishDate', live: true });
  });

  it('should leave every recorded date unchanged after insertions in the middle and a reordering, and give the new entries the next slots', () => {
    expect(second.code, second.output).toBe(0);
    for (const [slug, date] of Object.entries(firstLock.schedule!)) expect(secondLock.schedule![slug], slug).toBe(date);
    expect(secondLock.schedule!['new-one-in-the-middle']).toBe('2026-12-09T08:00:00.000Z');
    expect(secondLock.schedule!['another-new-one']).toBe('2026-12-11T08:00:00.000Z');
  });

  it('should publish exactly the entries whose date has come, with the scheduled date on entry.data.publishDate', async () => {
    expect(publishedOnDecember4th).toEqual(['alpha-coffee-grinders', 'bravo-pour-over-kettles', 'echo-cold-brew']);
    expect(await readFile(page('bravo-pour-over-kettles'), 'utf8')).toContain('data-publish-date="2026-12-03T08:00:00.000Z"');
    expect(await readFile(page('echo-cold-brew'), 'utf8')).toContain('data-publish-date="2020-01-01T00:00:00.000Z"');
  });

  it('should show every entry, with its scheduled date, when drafts is on', async () => {
    expect(withDrafts.code, withDrafts.output).toBe(0);
    expect(await published()).toHaveLength(7);
    expect(await readFile(page('another-new-one'), 'utf8')).toContain('data-publish-date="2026-12-11T08:00:00.000Z"');
  });

  it('should never pay for a refresh in a build, though plan lists the articles past their refreshAfter', () => {
    expect(planTwoDaysOn.refresh.due.map((article) => article.slug).sort()).toEqual(['alpha-coffee-grinders', 'bravo-pour-over-kettles', 'charlie-french-press', 'delta-milk-frothers', 'echo-cold-brew']);
    // 5 created by the first build; the second creates only its 2 new entries; the third, built when all 7 are due, nothing.
    expect(creations).toEqual([5, 7, 7]);
  });
});
