// The review gate in real `astro build`s against the emulator: waiting articles are left out and logged, approve brings
// them in with no request, approve --all-clean skips an article with an error finding, an approved article with one is
// built and the summary says so, regenerate makes the new output wait again while the approved one stays built, and a hand edit counts as reviewed.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { runCliBothWays, runCliInProcess } from '../cli/in-process-cli.js';
import { astro, buildPackage, createSite, type RunResult, type Site } from './astro-site.js';

let emulator: RunningEmulator;
let site: Site;
let first: RunResult;

const env = () => ({ ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
const built = (slug: string) => existsSync(join(site.root, 'dist', 'articles', slug, 'index.html'));
const page = (slug: string) => readFile(join(site.root, 'dist', 'articles', slug, 'index.html'), 'utf8');
const lockText = () => readFile(join(site.root, 'articles.lock.json'), 'utf8');
const SLUGS = ['aeropress-recipes', 'french-press-coffee', 'pour-over-kettles'];

/**
 * A CLI command in the site, asserting it made no request to the service: through the bin's own `main`
 * in this process (test/cli/in-process-cli.ts), or `bothWays` also through the built bin in a child,
 * which must answer alike (a run that changes nothing).
 */
async function cli(args: string[], { bothWays = false } = {}) {
  const before = emulator.requests.length;
  let result;
  if (bothWays) {
    const { inProcess, bin } = await runCliBothWays(args, { cwd: site.root, env: env() });
    expect(bin, `${args.join(' ')} through the bin`).toEqual(inProcess);
    result = inProcess;
  } else {
    result = await runCliInProcess(args, { cwd: site.root, env: env() });
  }
  expect(emulator.requests.length, `${args.join(' ')} made a request`).toBe(before);
  return result;
}

beforeAll(async () => {
  await buildPackage();
  // One article written with a writer's leftover ("As an AI language model"): an error finding by default.
  emulator = await startEmulator({ timing: 'instant', flaws: { articles: { 'pour over kettles': ['writer-leftover'] } } });
  site = await createSite('review');
  first = await astro(site.root, ['build'], env());
}, 240_000);

afterAll(async () => {
  await emulator?.stop();
  await site?.cleanup();
});

describe('the review gate in astro build', () => {
  it('should create every article but leave out those waiting for review, listing them with the command to approve them', () => {
    expect(first.code, first.output).toBe(0);
    expect(emulator.ledger.creations).toHaveLength(3);
    for (const slug of SLUGS) expect(built(slug), slug).toBe(false);
    expect(first.output).toContain(`3 articles wait for review and are left out of the build: ${SLUGS.join(', ')}.`);
    expect(first.output).toContain(`npx astro-article-loader approve ${SLUGS.join(' ')}`);
    expect(first.output).toMatch(/review\s+3 articles waiting for review, left out/);
  });

  it('should approve by name and with --all-clean, skipping the article with an error finding, and refuse an unknown slug leaving the lock file byte-identical', async () => {
    const before = await lockText();
    const refused = await cli(['approve', 'french-press-cofee'], { bothWays: true });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"french-press-cofee" is not an article of articles.yaml');
    expect(await lockText()).toBe(before);
    expect((await cli(['approve', 'french-press-coffee'])).code).toBe(0);
    const clean = await cli(['approve', '--all-clean', '--json']);
    expect(clean.code, clean.stderr).toBe(0);
    const document = JSON.parse(clean.stdout);
    expect(document.approved.map((change: { slug: string }) => change.slug)).toEqual(['aeropress-recipes']);
    expect(document.skipped).toEqual([{ slug: 'pour-over-kettles', errors: expect.arrayContaining(['writer_leftover']) }]);
  });

  it('should build the approved articles with no request to the service, and still leave out the one waiting', async () => {
    const requests = emulator.requests.length;
    const second = await astro(site.root, ['build'], env());
    expect(second.code, second.output).toBe(0);
    expect(emulator.requests.length).toBe(requests);
    expect(built('french-press-coffee')).toBe(true);
    expect(built('aeropress-recipes')).toBe(true);
    expect(built('pour-over-kettles')).toBe(false);
    expect(await page('french-press-coffee')).toContain('data-review="approved"');
    expect(second.output).toContain('1 article waits for review and is left out of the build: pour-over-kettles.');
  }, 120_000);

  it('should build an approved article with an error finding and say so; a regenerated article waits again while the approved one stays built', async () => {
    expect((await cli(['approve', 'pour-over-kettles'])).code).toBe(0);
    const regenerated = await runCliInProcess(['regenerate', 'aeropress-recipes', '--poll-interval', '20ms'], { cwd: site.root, env: env() });
    expect(regenerated.code, regenerated.stderr).toBe(0);
    const third = await astro(site.root, ['build'], env());
    expect(third.code, third.output).toBe(0);
    expect(built('pour-over-kettles')).toBe(true);
    expect(await page('pour-over-kettles')).toMatch(/data-review="approved" data-errors="[1-9]/);
    expect(third.output).toMatch(/1 approved article built with an error finding, as you approved: pour-over-kettles/);
    // The new version waits; the approved one is what the site keeps showing.
    expect(third.output).toContain('1 article has a new version waiting for review; the approved one stays on the site until you approve: aeropress-recipes.');
    expect(await page('aeropress-recipes')).toContain('data-review="approved"');
    expect(JSON.parse((await cli(['status', '--json'])).stdout).review).toMatchObject({ waiting: ['aeropress-recipes'], keptApproved: ['aeropress-recipes'] });
    const lock = JSON.parse(await lockText());
    expect(lock.articles['aeropress-recipes'].previous.output).toBe(lock.articles['aeropress-recipes'].approved.output);
  }, 120_000);

  it('should count a hand edit as reviewed', async () => {
    expect((await cli(['edit', 'aeropress-recipes'])).code).toBe(0);
    const requests = emulator.requests.length;
    const fourth = await astro(site.root, ['build'], env());
    expect(fourth.code, fourth.output).toBe(0);
    expect(emulator.requests.length).toBe(requests);
    expect(await page('aeropress-recipes')).toContain('data-review="edited"');
    expect(fourth.output).toMatch(/review\s+nothing waits for review/);
  }, 120_000);
});
