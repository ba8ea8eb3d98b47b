// Refreshing articles as they age, from the command line on a fixed clock (ARTICLE_LOADER_NOW): plan lists the due ones, sync --refresh pays for exactly those within the budget (the emulator's ledger), a plain sync pays for none, a hand edit is never refreshed, and the old article is served until the new one is finished.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); the first sync, and one read-only run of plan, status and regenerate, also through the built bin in a child (the read-only ones must answer alike).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, runCli, serviceEnv, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
let dir: string;
let cleanup: () => Promise<void>;
const FAST = ['--poll-interval', '20ms'];
const NOW = '2026-06-01T00:00:00Z';
/** When each article finished, as the lock file will say: alpha oldest; epsilon 12 days old (fresh). */
const FINISHED: Record<string, string> = {
  'refresh-alpha': '2026-01-01T00:00:00.000Z',
  'refresh-beta': '2026-02-01T00:00:00.000Z',
  'refresh-gamma': '2026-03-01T00:00:00.000Z',
  'refresh-delta': '2025-12-01T00:00:00.000Z',
  'refresh-epsilon': '2026-05-20T00:00:00.000Z',
};
const KEYWORDS = Object.keys(FINISHED).map((slug) => slug.replace('-', ' '));

type Entry = { articleId: string; status: string; createdAt: string; firstCreatedAt?: string; finishedAt?: string; previous?: { articleId: string } };
const lockPath = () => path.join(dir, 'articles.lock.json');
const lock = async () => JSON.parse(await readFile(lockPath(), 'utf8')) as { articles: Record<string, Entry> };
const options = () => ({ cwd: dir, env: { ...serviceEnv(emulator.url), ARTICLE_LOADER_NOW: NOW } });
const cli = (args: string[]) => runCliInProcess(args, options());
/** Runs a command that changes nothing here and through the bin, asserting both answer alike. */
async function cliBothWays(args: string[]) {
  const { inProcess, bin } = await runCliBothWays(args, options());
  expect(bin, `${args.join(' ')} through the bin`).toEqual(inProcess);
  return inProcess;
}
const created = (keyword: string) => emulator.ledger.creationsForKeyword(keyword).length;

let original: Record<string, Entry>;

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
  ({ dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(KEYWORDS, { refreshAfter: '30d' }) }));
  // Through the bin: a sync that creates and waits, as a child process runs it.
  expect((await runCli(['sync', ...FAST], options())).code).toBe(0);
  // The articles aged: their finish times moved back, as if they had been written then.
  const text = JSON.parse(await readFile(lockPath(), 'utf8')) as { articles: Record<string, Entry> };
  for (const [slug, finishedAt] of Object.entries(FINISHED)) text.articles[slug]!.finishedAt = finishedAt;
  await writeFile(lockPath(), `${JSON.stringify(text, null, 2)}\n`);
  original = (await lock()).articles;
  // delta is edited by hand: never refreshed while the edit exists.
  await mkdir(path.join(dir, 'articles.edits'), { recursive: true });
  await writeFile(path.join(dir, 'articles.edits', 'refresh-delta.html'), '<p>Edited by hand.</p>\n');
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

describe('refreshing articles as they age', () => {
  it('should list the due articles in plan, oldest first, with the estimate, and say a hand edit is not refreshed, without a request', async () => {
    const requests = emulator.requests.length;
    const text = await cliBothWays(['plan', '--budget', '2']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/refresh +refresh-alpha +151d old, refreshAfter 30d +~[\d,]+ words\n/);
    expect(text.stdout).toMatch(/refresh-gamma +92d old, refreshAfter 30d +~[\d,]+ words +\(past the budget: a later run\)/);
    expect(text.stdout).toMatch(/refresh-delta +hand edit: not refreshed \(182d old, refreshAfter 30d\); delete articles\.edits\/refresh-delta\.html/);
    expect(text.stdout).not.toContain('refresh-epsilon');
    expect(text.stdout).toMatch(/Refresh cost: ~[\d,]+ words for the 2 articles `sync --refresh` would pay for now \(budget 2 per run\)/);
    const json = JSON.parse((await cli(['plan', '--budget', '2', '--json'])).stdout) as { refresh: { due: { slug: string; thisRun: boolean; estimate: { words: number } }[]; handEdited: { slug: string }[] } };
    expect(json.refresh.due.map((age) => [age.slug, age.thisRun])).toEqual([['refresh-alpha', true], ['refresh-beta', true], ['refresh-gamma', false]]);
    expect(json.refresh.due[0]!.estimate.words).toBeGreaterThan(0);
    expect(json.refresh.handEdited.map((age) => age.slug)).toEqual(['refresh-delta']);
    expect(emulator.requests.length).toBe(requests);
  });

  it("should show each article's age in status, due or not", async () => {
    const status = await cliBothWays(['status', '--no-refresh']);
    expect(status.stdout).toMatch(/refresh-alpha .* 151d due /);
    expect(status.stdout).toMatch(/refresh-delta .* 182d hand edit /);
    expect(status.stdout).toMatch(/refresh-epsilon .* 12d +/);
    const json = JSON.parse((await cli(['status', '--no-refresh', '--json'])).stdout) as { articles: { slug: string; age: { state: string; since: string; refreshAfter: string } | null }[] };
    expect(json.articles.find((row) => row.slug === 'refresh-beta')!.age).toMatchObject({ state: 'due', since: FINISHED['refresh-beta'], refreshAfter: '30d' });
  });

  it('should pay for nothing in a plain sync', async () => {
    const before = emulator.ledger.creations.length;
    const result = await cli(['sync', ...FAST]);
    expect(result.code, result.stderr).toBe(0);
    expect(emulator.ledger.creations.length).toBe(before);
  });

  it('should pay for exactly the oldest due articles within the budget, serving the old ones until the new ones finish', async () => {
    const before = emulator.ledger.creations.length;
    const queued = await cli(['sync', '--refresh', '--budget', '2', '--no-wait', ...FAST]);
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.stderr).toContain('sync --refresh refreshes 2 due articles, oldest first: refresh-alpha (151d old, refreshAfter 30d), refresh-beta (120d old, refreshAfter 30d); 1 more is due and waits for a later run (budget): refresh-gamma.');
    expect(emulator.ledger.creations.length).toBe(before + 2);
    expect([created('refresh alpha'), created('refresh beta'), created('refresh gamma'), created('refresh delta')]).toEqual([2, 2, 1, 1]);
    expectNoSecret(queued);

    // Being written: the lock keeps the old article as the one served, and its age still counts from it.
    const writing = (await lock()).articles['refresh-alpha']!;
    expect(writing).toMatchObject({ status: 'pending', previous: { articleId: original['refresh-alpha']!.articleId }, firstCreatedAt: original['refresh-alpha']!.createdAt });
    const serving = JSON.parse((await cli(['sync', '--no-wait', '--json'])).stdout) as { articles: { slug: string; serving: { articleId: string; current: boolean } }[] };
    expect(serving.articles.find((a) => a.slug === 'refresh-alpha')!.serving).toEqual({ articleId: original['refresh-alpha']!.articleId, current: false, emulator: false });
    const status = JSON.parse((await cli(['status', '--no-refresh', '--json'])).stdout) as { articles: { slug: string; age: { state: string; since: string } }[] };
    expect(status.articles.find((row) => row.slug === 'refresh-alpha')!.age).toMatchObject({ state: 'refreshing', since: FINISHED['refresh-alpha'] });

    // Finished: the new article is served; createdAt stays the first article's, and nothing more is paid.
    const finish = await cli(['sync', ...FAST]);
    expect(finish.code, finish.stderr).toBe(0);
    const done = (await lock()).articles['refresh-alpha']!;
    expect(done.status).toBe('finished');
    expect(done.articleId).not.toBe(original['refresh-alpha']!.articleId);
    expect(done.previous).toBeUndefined();
    expect(done.firstCreatedAt).toBe(original['refresh-alpha']!.createdAt);
    expect(emulator.ledger.creations.length).toBe(before + 2);
  });

  it('should refresh the rest with regenerate --due, never the hand-edited article', async () => {
    const dry = await cliBothWays(['regenerate', '--due', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/regenerate would pay for 1 new article \(≈[\d,]+ words to bill\): refresh-gamma\. Nothing was created/);
    const before = emulator.ledger.creations.length;
    const result = await cli(['regenerate', '--due', ...FAST]);
    expect(result.code, result.stderr).toBe(0);
    expect(emulator.ledger.creations.length).toBe(before + 1);
    expect(created('refresh gamma')).toBe(2);
    expect(created('refresh delta')).toBe(1);
    const none = await cli(['regenerate', '--due']);
    expect(none.stdout).toContain('regenerate --due: no article is due for a refresh within the budget. Nothing was created.');
    const both = await cli(['regenerate', '--due', 'refresh-gamma']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give slugs or --due, not both.');
    expect(emulator.ledger.creations.length).toBe(before + 1);
  });
});
