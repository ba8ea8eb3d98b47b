// The review gate from the command line: approve and unapprove record a person's yes in the lock file (no request), refuse an unknown slug or one with no output leaving the lock file byte-identical, and plan, status and verify say what waits.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); a plan and a refused approve and unapprove also through the built bin in a child, which must answer alike but for the clock of plan --json, and a status through the bin alone (its ages count seconds).
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, runCli, serviceEnv, tempProject, type CliResult } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
let dir: string;
let cleanup: () => Promise<void>;
const lockFile = () => path.join(dir, 'articles.lock.json');
const lockText = () => readFile(lockFile(), 'utf8');
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: serviceEnv(emulator.url) });
const KEYWORDS = ['first article', 'second article', 'third article'];

/** The one thing two runs may print differently: the clock plan --json reads its ages by (`"now": "…"`). */
function withoutNow(result: CliResult): CliResult {
  return { ...result, stdout: result.stdout.replace(/"now": "[^"]*"/g, '"now": "<now>"') };
}

/** Runs `args` here and through the bin, which must answer alike (a run that changes nothing). */
async function cliBothWays(args: string[]) {
  const { inProcess, bin } = await runCliBothWays(args, { cwd: dir, env: serviceEnv(emulator.url) });
  expect(withoutNow(bin), `${args.join(' ')} through the bin`).toEqual(withoutNow(inProcess));
  return inProcess;
}

/** Runs `args` (here, unless `run` says otherwise), asserting it made no request to the service. */
async function noRequest(args: string[], run: (args: string[]) => Promise<CliResult> = cli) {
  const before = emulator.requests.length;
  const result = await run(args);
  expect(emulator.requests.length, `${args.join(' ')} made a request`).toBe(before);
  expectNoSecret(result);
  return result;
}

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
  ({ dir, cleanup } = await tempProject({ 'articles.yaml': `review: true\n${manifestYaml(KEYWORDS)}` }));
  expect((await cli(['sync', '--poll-interval', '20ms'])).code).toBe(0);
  // In the manifest, never created: nothing to approve.
  await writeFile(path.join(dir, 'articles.yaml'), `review: true\n${manifestYaml([...KEYWORDS, 'not written yet'])}`);
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

describe('approve and unapprove', () => {
  it('should list every article as waiting in plan and status while none is approved', async () => {
    const plan = await noRequest(['plan', '--json'], cliBothWays);
    expect(JSON.parse(plan.stdout).review).toEqual({ required: true, waiting: ['first-article', 'second-article', 'third-article'], keptApproved: [], approved: [], edited: [] });
    const status = await noRequest(['status', '--no-refresh'], (args) => runCli(args, { cwd: dir, env: serviceEnv(emulator.url) }));
    expect(status.stdout).toContain('Waiting for review (left out of a build until approved): first-article, second-article, third-article.');
    const off = await noRequest(['plan', '--json', '--no-review']);
    expect(JSON.parse(off.stdout).review.required).toBe(false);
  });

  it('should refuse an unknown slug, naming it, and leave the lock file byte-identical', async () => {
    const before = await lockText();
    const result = await noRequest(['approve', 'first-article', 'frist-article'], cliBothWays);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"frist-article" is not an article of articles.yaml');
    expect(await lockText()).toBe(before);
    const json = await noRequest(['unapprove', 'nope', '--json'], cliBothWays);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'unapprove', exitCode: 1, error: { code: 'review_unknown_slug', slugs: ['nope'] } });
    expect(await lockText()).toBe(before);
  });

  it('should refuse an article with no output, naming it, and leave the lock file byte-identical', async () => {
    const before = await lockText();
    const result = await noRequest(['approve', 'second-article', 'not-written-yet', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({ code: 'review_no_output', slugs: ['not-written-yet'] });
    expect(JSON.parse(result.stdout).error.message).toContain('"not-written-yet" (never created)');
    expect(await lockText()).toBe(before);
  });

  it("should refuse to approve in a lock file whose entries point at each other's outputs, leaving it byte-identical", async () => {
    const before = await lockText();
    const lock = JSON.parse(before) as { articles: Record<string, { output: string }> };
    const [a, b] = [lock.articles['first-article']!, lock.articles['second-article']!];
    [a.output, b.output] = [b.output, a.output];
    const swapped = `${JSON.stringify(lock, null, 2)}\n`;
    await writeFile(lockFile(), swapped);
    try {
      const result = await noRequest(['approve', 'first-article', '--json']);
      expect(result.code).not.toBe(0);
      expect(JSON.parse(result.stdout).error).toMatchObject({ code: 'corrupt_lock' });
      expect(await lockText()).toBe(swapped);
    } finally {
      await writeFile(lockFile(), before);
    }
  });

  it('should record the approval against the output each article serves, without a request', async () => {
    const result = await noRequest(['approve', 'first-article', 'second-article', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const lock = JSON.parse(await lockText());
    const output = lock.articles['first-article'].output as string;
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'approve', exitCode: 0, review: true, approved: [{ slug: 'first-article', output, changed: true }, { slug: 'second-article', changed: true }], skipped: [] });
    expect(lock.articles['first-article'].approved).toEqual({ output, approvedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(JSON.parse((await noRequest(['plan', '--json'])).stdout).review).toMatchObject({ waiting: ['third-article'], approved: ['first-article', 'second-article'] });
  });

  it('should write nothing when the article is approved already', async () => {
    const before = await lockText();
    const again = await noRequest(['approve', 'first-article']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('first-article: already approved; nothing written for it.');
    expect(await lockText()).toBe(before);
  });

  it('should take an approval back with unapprove', async () => {
    const result = await noRequest(['unapprove', 'second-article']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('✓ Took back the approval of second-article');
    expect(JSON.parse(await lockText()).articles['second-article'].approved).toBeUndefined();
  });

  it('should count a hand edit as reviewed', async () => {
    expect((await noRequest(['edit', 'third-article'])).code).toBe(0);
    const review = JSON.parse((await noRequest(['status', '--json', '--no-refresh'])).stdout).review;
    expect(review).toMatchObject({ waiting: ['second-article'], approved: ['first-article'], edited: ['third-article'] });
  });

  it('should make a regenerated article wait again while its approved article is kept for the site, with nothing for verify to warn of', async () => {
    expect((await cli(['regenerate', 'first-article', '--poll-interval', '20ms'])).code).toBe(0);
    const plan = JSON.parse((await noRequest(['plan', '--json'])).stdout).review;
    expect(plan).toMatchObject({ waiting: ['first-article', 'second-article'], keptApproved: ['first-article'] });
    const entry = JSON.parse(await lockText()).articles['first-article'];
    expect(entry.previous.output).toBe(entry.approved.output);
    expect(entry.output).not.toBe(entry.approved.output);
    const verify = await noRequest(['verify', '--json']);
    expect(verify.code).toBe(0);
    // The approval names the earlier output the entry keeps: not stale.
    expect((JSON.parse(verify.stdout).problems as { code: string }[]).filter((problem) => problem.code.includes('approval'))).toEqual([]);
  });

  it('should approve every waiting article with --all-clean', async () => {
    const result = await noRequest(['approve', '--all-clean', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).approved.map((change: { slug: string }) => change.slug)).toEqual(['first-article', 'second-article']);
    expect(JSON.parse((await noRequest(['plan', '--json'])).stdout).review.waiting).toEqual([]);
    expect((JSON.parse((await noRequest(['verify', '--json'])).stdout).problems as { code: string }[]).map((problem) => problem.code)).toEqual(['unreferenced_file']);
  });

  it('should refuse approve with neither slugs nor --all-clean, and a review: that is not true or false, before anything else', async () => {
    const none = await noRequest(['approve']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('missing <slug…>');
    const before = await lockText();
    await writeFile(path.join(dir, 'articles.yaml'), `review: "yes"\n${manifestYaml(KEYWORDS)}`);
    const bad = await noRequest(['approve', 'first-article']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/articles\.yaml:1 top level → review: must be true .* or false, not the text "yes"; write it unquoted: `review: true`/);
    expect(await lockText()).toBe(before);
  });
});
