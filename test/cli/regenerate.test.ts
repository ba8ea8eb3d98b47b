// regenerate from the command line: says what it pays first, pays once per slug, serves the earlier article meanwhile; refuses what it can't regenerate, before any request.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); the --dry-run also through the built bin in a child, which must answer alike.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, serviceEnv, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
let dir: string;
let cleanup: () => Promise<void>;
const FAST = ['--poll-interval', '20ms'];

const lock = async () => JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')) as { articles: Record<string, { articleId: string; attempt: number; status: string; previous?: { articleId: string } }> };
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: serviceEnv(emulator.url) });

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
  ({ dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(['regen one', 'regen two']) }));
  expect((await cli(['sync', ...FAST])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

describe('regenerate', () => {
  it('should say what it would pay for with --dry-run, and create nothing, alike through the bin', async () => {
    const before = emulator.requests.length;
    const { inProcess: result, bin } = await runCliBothWays(['regenerate', 'regen-one', '--dry-run'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(bin).toEqual(result);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/regenerate would pay for 1 new article \(≈[\d,]+ words to bill\): regen-one\. Nothing was created/);
    expect(emulator.requests.length).toBe(before);
  });

  it('should pay for one new article, say so first, and count the attempt', async () => {
    const before = await lock();
    const creations = emulator.ledger.creations.length;
    const result = await cli(['regenerate', 'regen-one', ...FAST, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/regenerate pays for 1 new article \(≈[\d,]+ words to bill\): regen-one/);
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'regenerate', exitCode: 0 });
    const after = await lock();
    expect(emulator.ledger.creations.length).toBe(creations + 1);
    expect(after.articles['regen-one']!.articleId).not.toBe(before.articles['regen-one']!.articleId);
    expect(after.articles['regen-one']!.attempt).toBe(before.articles['regen-one']!.attempt + 1);
    expect(after.articles['regen-two']).toEqual(before.articles['regen-two']);
    // regen-two is left alone but still in the manifest: not an orphan, and nothing tells the user to prune it.
    expect(JSON.parse(result.stdout)).toMatchObject({ totals: { orphans: 0 }, orphans: [] });
    expectNoSecret(result);
  });

  it('should not call the articles it leaves alone orphans in its text summary', async () => {
    const result = await cli(['regenerate', 'regen-two', ...FAST]);
    expect(result.code, result.stderr).toBe(0);
    const output = `${result.stdout}${result.stderr}`;
    expect(output).toMatch(/^✓ Synced 1 article/m);
    expect(output).not.toMatch(/orphan|not in the manifest/);
  });

  it('should respect frozen mode and the budget, as sync does', async () => {
    const before = emulator.ledger.creations.length;
    const frozen = await cli(['regenerate', 'regen-two', '--frozen']);
    expect(frozen.code).toBe(3);
    expect(frozen.stderr).toContain('Frozen mode');
    const overBudget = await cli(['regenerate', 'regen-one', 'regen-two', '--budget', '1']);
    expect(overBudget.code).toBe(3);
    expect(emulator.ledger.creations.length).toBe(before);
  });

  it('should refuse a slug not in the manifest or not finished, and a --retry-failed of a finished article, before any request', async () => {
    const text = await readFile(path.join(dir, 'articles.lock.json'), 'utf8');
    const before = emulator.requests.length;
    const unknown = await cli(['regenerate', 'regen-on']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"regen-on" is not a slug of articles.yaml; did you mean');
    expect(unknown.stderr).toContain('did you mean "regen-one"?');
    const retry = await cli(['sync', '--retry-failed=regen-two']);
    expect(retry.code).toBe(2);
    expect(retry.stderr).toContain('--retry-failed=regen-two: "regen-two" is not a failed article; to pay for a new article on purpose, run: astro-article-loader regenerate regen-two');
    const none = await cli(['regenerate']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('missing <slug…>');
    expect(emulator.requests.length).toBe(before);
    expect(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).toBe(text);
  });
});
