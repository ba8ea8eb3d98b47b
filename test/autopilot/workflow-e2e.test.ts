// The workflow `init github` writes, run step by step from its YAML (test/autopilot/workflow-run.ts says what stands in for
// what): a bare repository as the remote, the emulator in a child process as the service (its ledger outlives every kill),
// autopilot killed with SIGKILL at seeded points and run again; after each run, no article created twice on the ledger, and
// every id the ledger billed in the lock file on the branch (or an `unknown` entry for a create killed before its id was pushed).
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { buildCli, cleanEnv, CLI, runCli } from '../cli/cli-harness.js';
import { ChildOutput } from '../child-output.js';
import { REPO } from '../loader/astro-site.js';
import { createGitSandbox, OWNER, type GitSandbox } from './git-sandbox.js';
import { runArticlesJob, type JobResult } from './workflow-run.js';

/** The emulator's keys: the secret ARTICLES_API_KEY of the workflow. Creates are sent without idempotency keys, as the workflow sends them. */
const KEY = 'e2e-autopilot-key';
/** The fixed clock of every run: three days before the cadence's first slot. */
const NOW = '2026-11-28T05:17:00Z';
const BRANCH = 'articles/autopilot';

/**
 * Where the job is killed: the exact line autopilot prints at that point (its output is the event waited for).
 * `seed` picks which occurrence, so the point is seeded, not always the first.
 */
const KILL_POINTS = [
  { name: 'after a create', line: /^created \S+ \S+$/, seed: 2, allCreated: false },
  { name: 'while waiting', line: /^waiting for \d+ articles? \(up to /, seed: 1, allCreated: true },
  { name: 'before the push', line: /^checkpoint autopilot: the articles written$/, seed: 1, allCreated: true },
];

interface Service {
  url: string;
  ledger(): Promise<{ creations: { articleId: string; targetKeyword: string }[]; duplicates: unknown[] }>;
  /** POST creates the emulator has answered so far, counted from its request log (read after a health check's line, so every earlier line is in). */
  creates(): Promise<number>;
  stop(): Promise<void>;
}

/** The emulator command in a child process of its own: its ledger (and its state file) outlive every kill of the job. */
async function startService(box: GitSandbox, seed: number): Promise<Service> {
  const args = ['emulator', '--port', '0', '--speed', 'fast', '--seed', String(seed), '--state', path.join(box.dir, 'emulator-state.json'), '--log-requests'];
  const child = spawn(process.execPath, [CLI, ...args], { cwd: box.dir, env: cleanEnv({ EMULATOR_API_KEYS: KEY }), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = ChildOutput.of(child, 'the emulator');
  const closed = new Promise<void>((resolvePromise) => child.once('close', () => resolvePromise()));
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(await output.waitForLine(/listening on http:\/\/127\.0\.0\.1:\d+/))![1]!;
  return {
    url,
    ledger: async () => (await fetch(`${url}/_emulator/ledger`, { headers: { authorization: `Bearer ${KEY}` } })).json(),
    creates: async () => {
      const from = output.complete.length;
      await fetch(`${url}/_emulator/health`);
      await output.waitForLine(/^GET \/_emulator\/health 200/, { from });
      return output.complete.split('\n').filter((line) => /^POST \/api\/articles\/? \d/.test(line)).length;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await closed;
    },
  };
}

/** The site on the remote's main: the fixture, the workflow init github wrote for it, committed by the owner. */
async function publishSite(box: GitSandbox, service: Service): Promise<string> {
  const seed = path.join(box.dir, 'seed');
  await cp(path.join(REPO, 'fixtures/sites/autopilot'), seed, { recursive: true });
  await box.git(seed, ['init', '--quiet', '-b', 'main']);
  await box.git(seed, ['remote', 'add', 'origin', box.remote]);
  const init = await runCli(['init', 'github', '--base-url', service.url], { cwd: seed, env: { HOME: box.env.HOME, GIT_CONFIG_NOSYSTEM: '1' } });
  expect(init.code, init.stderr).toBe(0);
  await box.ownerCommit(seed, 'The site and its workflow');
  return box.git(box.remote, ['show', 'main:.github/workflows/articles.yml']);
}

interface LockEntry {
  keyword?: string;
  status?: string;
  articleId?: string;
  previous?: { articleId?: string };
}

async function branchLock(box: GitSandbox): Promise<Record<string, LockEntry> | undefined> {
  const exists = await box.git(box.remote, ['rev-parse', '--verify', `refs/heads/${BRANCH}`]).then(
    () => true,
    () => false,
  );
  if (!exists) return undefined;
  return JSON.parse(await box.git(box.remote, ['show', `${BRANCH}:articles.lock.json`])).articles;
}

/** The money rule after a run: nothing created twice, and every billed id on the branch (or an unknown entry for its keyword). */
async function expectLedgerMatchesBranch(box: GitSandbox, service: Service, context: string): Promise<void> {
  const ledger = await service.ledger();
  expect(ledger.duplicates, context).toEqual([]);
  const keywords = ledger.creations.map((creation) => creation.targetKeyword);
  expect(new Set(keywords).size, `${context}: a keyword created twice: ${keywords.join(', ')}`).toBe(keywords.length);
  const entries = Object.values((await branchLock(box)) ?? {});
  for (const creation of ledger.creations) {
    const recorded = entries.some((entry) => entry.articleId === creation.articleId || entry.previous?.articleId === creation.articleId);
    const unknown = entries.some((entry) => entry.keyword === creation.targetKeyword && entry.status === 'unknown');
    expect(recorded || unknown, `${context}: ${creation.articleId} (${creation.targetKeyword}) billed but not on the branch`).toBe(true);
  }
}

let box: GitSandbox | undefined;
let service: Service | undefined;

beforeAll(async () => {
  await buildCli();
}, 180_000);

afterEach(async () => {
  await service?.stop();
  await box?.cleanup();
  service = undefined;
  box = undefined;
});

afterAll(async () => {
  await service?.stop();
});

async function setUp(seed: number): Promise<string> {
  box = await createGitSandbox();
  service = await startService(box, seed);
  return publishSite(box, service);
}

const job = (workflow: string, extra: Partial<Parameters<typeof runArticlesJob>[0]> = {}): Promise<JobResult> =>
  runArticlesJob({ box: box!, workflow, key: KEY, now: NOW, ...extra });

describe('the articles workflow, run from the YAML init github writes', () => {
  it('should create on the branch and open the pull request; with it open, nothing new: 0 creates, no commit, the pull request left as it is', async () => {
    const workflow = await setUp(1);
    const first = await job(workflow);
    expect(first.exitCode, first.output).toBe(6);
    expect(first.stepStatus).toBe(0);
    expect(first.pullRequest?.action).toBe('create');
    expect(first.pullRequest?.head).toBe(BRANCH);
    expect(first.pullRequest?.body).toMatch(/^# Articles: created [1-9]/);
    await expectLedgerMatchesBranch(box!, service!, 'the first run');
    const created = await service!.creates();
    expect(created).toBeGreaterThan(0);
    expect((await service!.ledger()).creations).toHaveLength(created);
    expect(await box!.git(box!.remote, ['log', '--format=%an', '-1', BRANCH])).toBe('astro-article-loader');
    const tip = await box!.git(box!.remote, ['rev-parse', BRANCH]);

    // The pull request is open: the run has nothing new, says the branch holds unmerged work (8), and leaves the pull request's report alone.
    const second = await job(workflow, { openPullRequest: true });
    expect(second.exitCode, second.output).toBe(8);
    expect(second.stepStatus).toBe(0);
    expect(second.pullRequest).toBeUndefined();
    expect(await service!.creates()).toBe(created);
    expect(await box!.git(box!.remote, ['rev-parse', BRANCH])).toBe(tip);

    // Closed without merging (none open): the next run opens a new one listing what the branch brings, paying nothing.
    const reopened = await job(workflow);
    expect(reopened.exitCode, reopened.output).toBe(8);
    expect(reopened.pullRequest?.action).toBe('create');
    expect(reopened.pullRequest?.body).toMatch(/^# Articles: nothing new in this run; the branch holds [1-9]\d* articles? from an earlier run, not merged yet/);
    expect(reopened.pullRequest?.body).toMatch(/## New and refreshed\n\n- \*\*/);
    expect(await service!.creates()).toBe(created);
    expect(await box!.git(box!.remote, ['rev-parse', BRANCH])).toBe(tip);

    // Merged: the base has all the branch brings, so the next run has nothing to do (0) and opens nothing.
    const owner = path.join(box!.dir, 'seed');
    await box!.git(owner, ['fetch', '--quiet', 'origin']);
    await box!.git(owner, [...OWNER, 'merge', '--quiet', '--no-edit', `origin/${BRANCH}`]);
    await box!.git(owner, ['push', '--quiet', 'origin', 'main']);
    const merged = await job(workflow);
    expect(merged.exitCode, merged.output).toBe(0);
    expect(merged.output).toContain('nothing to do');
    expect(merged.pullRequest).toBeUndefined();
    expect(await service!.creates()).toBe(created);

    // A dry run reads the branch too: what earlier runs paid for there is not "would create".
    const dry = await job(workflow, { inputs: { 'dry-run': true, budget: '' } });
    expect(dry.exitCode, dry.output).toBe(0);
    expect(dry.output).not.toMatch(/would create [1-9]/);
    expect(await service!.creates()).toBe(created);
    expect(await box!.git(box!.remote, ['rev-parse', BRANCH])).toBe(tip);
  }, 240_000);

  it('should create, commit and push nothing on a dry run from the Actions tab', async () => {
    const workflow = await setUp(2);
    const dry = await job(workflow, { inputs: { 'dry-run': true, budget: '' } });
    expect([0, 6, 7], dry.output).toContain(dry.exitCode);
    expect(dry.stepStatus).toBe(0);
    expect(dry.pullRequest).toBeUndefined();
    expect(await service!.creates()).toBe(0);
    expect(await branchLock(box!)).toBeUndefined();
  }, 240_000);

  for (const point of KILL_POINTS) {
    it(`should pay for nothing twice when the job is killed ${point.name}, then run again`, async () => {
      const workflow = await setUp(10 + point.seed);
      const killed = await job(workflow, { killAt: { line: point.line, occurrence: point.seed } });
      expect(killed.killed, `${point.name}: the line never came:\n${killed.output}`).toBe(true);
      expect(killed.pullRequest).toBeUndefined();
      const atKill = await service!.creates();
      expect(atKill).toBeGreaterThanOrEqual(point.seed);
      await expectLedgerMatchesBranch(box!, service!, `killed ${point.name}`);
      // 6 when the kill left work for this run; 8 when the killed job had pushed all of it before the kill reached it (the
      // kill races the job on a busy machine): either way this run opens the pull request the killed job never did.
      const again = await job(workflow);
      expect(again.stepStatus, again.output).toBe(0);
      expect([6, 8], again.output).toContain(again.exitCode);
      expect(again.pullRequest?.action).toBe('create');
      expect(again.pullRequest?.body).toMatch(/^# Articles: /);
      await expectLedgerMatchesBranch(box!, service!, `the run after the kill ${point.name}`);
      // Every create had left before the wait: the next run only polls and fetches them, for free.
      if (point.allCreated) expect(await service!.creates()).toBe(atKill);
      const settled = Object.values((await branchLock(box!)) ?? {});
      expect(settled.filter((entry) => entry.status !== 'finished' && entry.status !== 'unknown'), 'every article finished or unknown on the branch').toEqual([]);
      const third = await job(workflow, { openPullRequest: true });
      expect(third.stepStatus, third.output).toBe(0);
      expect(third.exitCode, third.output).toBe(8);
      expect(third.pullRequest).toBeUndefined();
      await expectLedgerMatchesBranch(box!, service!, `a third run`);
    }, 300_000);
  }

  it('should refuse a shallow checkout (fetch-depth other than 0), exit 2, nothing created or pushed, saying what to change', async () => {
    const workflow = await setUp(3);
    const shallow = await job(workflow.replace('fetch-depth: 0', 'fetch-depth: 1'));
    expect(shallow.exitCode).toBe(2);
    expect(shallow.stepStatus).toBe(2);
    expect(shallow.output).toContain('fetch-depth: 0');
    expect(shallow.output).not.toContain('    at ');
    expect(await service!.creates()).toBe(0);
    expect(await branchLock(box!)).toBeUndefined();
  }, 240_000);
});
