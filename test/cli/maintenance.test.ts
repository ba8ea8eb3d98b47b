// `status`, `prune` and `verify` over real lock files and caches written by `sync`.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); one read-only run of each command also through the built bin in a child, which must answer alike.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, serviceEnv, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
const cleanups: (() => Promise<void>)[] = [];
const FAST = ['--poll-interval', '20ms'];

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
});

afterAll(async () => {
  await emulator?.stop();
  for (const cleanup of cleanups) await cleanup();
});

/** A project whose keywords were synced to finished articles. */
async function syncedProject(keywords: string[]): Promise<string> {
  const { dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(keywords) });
  cleanups.push(cleanup);
  const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
  expect(result.code).toBe(0);
  return dir;
}

async function outputFiles(dir: string): Promise<string[]> {
  return (await readdir(path.join(dir, 'articles.cache', 'outputs'))).sort();
}

describe('astro-article-loader status', () => {
  it('should refresh only unfinished articles by GET and sum the words billed as recorded, estimating only unrecorded entries', async () => {
    const dir = await syncedProject(['status finished one']);
    await writeFile(path.join(dir, 'articles.yaml'), manifestYaml(['status finished one', 'status pending two', 'status pending three']));
    emulator.setTiming({ queueDelayMs: 0, writingMs: 120_000 });
    try {
      expect((await runCliInProcess(['sync', '--no-wait', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
      const getsBefore = emulator.requests.filter((r) => r.route === 'getArticle').length;
      const result = await runCliInProcess(['status', '--json'], { cwd: dir, env: serviceEnv(emulator.url) });
      expect(result.code).toBe(0);
      expect(emulator.requests.filter((r) => r.route === 'getArticle').length - getsBefore).toBe(2);
      const document = JSON.parse(result.stdout);
      const billed = emulator.ledger.creationsForKeyword('status finished one')[0]!.words;
      expect(document).toMatchObject({
        schemaVersion: 1,
        command: 'status',
        exitCode: 0,
        refreshed: 'unfinished',
        notInLock: [],
        totals: {
          entries: 3,
          finished: 1,
          pending: 2,
          refreshed: 2,
          billedWords: {
            words: billed + 2 * 1800,
            articles: 3,
            recorded: { words: billed, articles: 1, images: 0, imageWords: 0 },
            estimated: { words: 2 * 1800, articles: 2 },
            notCounted: 0,
          },
        },
      });
      const bySlug = Object.fromEntries(document.articles.map((a: { slug: string }) => [a.slug, a]));
      expect(bySlug['status-finished-one']).toMatchObject({ status: 'finished', remote: null, billed: { words: billed }, estimatedWords: 1800, inManifest: true });
      expect(bySlug['status-pending-two']).toMatchObject({ status: 'pending', remote: { status: expect.stringMatching(/^(queued|processing)$/) } });

      const text = await runCliInProcess(['status'], { cwd: dir, env: serviceEnv(emulator.url) });
      expect(text.stdout).toMatch(/status-pending-two\s+pending\s+(queued|processing)/);
      expect(text.stdout).toContain(
        `Words billed so far: ~${(billed + 3600).toLocaleString('en-US')}: ${billed.toLocaleString('en-US')} as recorded for 1 article; ~3,600 estimated for 2 articles without a record`,
      );
      expectNoSecret(text);
    } finally {
      emulator.setTiming('instant');
    }
  });

  it('should count an earlier article replaced by a changed request as recorded, beside the estimate of its pending successor', async () => {
    const dir = await syncedProject(['status replaced one']);
    const first = emulator.ledger.creationsForKeyword('status replaced one')[0]!.words;
    await writeFile(path.join(dir, 'articles.yaml'), manifestYaml(['status replaced one'], { articleLength: 'long' }));
    emulator.setTiming({ queueDelayMs: 0, writingMs: 120_000 });
    try {
      expect((await runCliInProcess(['sync', '--no-wait', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    } finally {
      emulator.setTiming('instant');
    }
    const result = await runCliInProcess(['status', '--json', '--no-refresh'], { cwd: dir });
    expect(JSON.parse(result.stdout).totals.billedWords).toMatchObject({
      words: first + 3000,
      estimated: { words: 3000, articles: 1 },
      earlierArticles: { words: first, recorded: 1, notCounted: 0 },
    });
  });

  it('should show offline placeholders as such, never ask the service about them and bill them nothing', async () => {
    const { dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(['status placeholder one']) });
    cleanups.push(cleanup);
    expect((await runCliInProcess(['sync', '--offline'], { cwd: dir })).code).toBe(0);
    const getsBefore = emulator.requests.filter((r) => r.route === 'getArticle').length;
    const json = await runCliInProcess(['status', '--json', '--refresh-all'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(emulator.requests.filter((r) => r.route === 'getArticle').length).toBe(getsBefore);
    const document = JSON.parse(json.stdout);
    expect(document.articles[0]).toMatchObject({ slug: 'status-placeholder-one', emulator: true, remote: null });
    expect(document.totals).toMatchObject({ emulator: 1, billedWords: { words: 0, articles: 0 } });
    const text = await runCliInProcess(['status', '--no-refresh'], { cwd: dir });
    expect(text.stdout).toMatch(/status-placeholder-one\s+finished\s+offline placeholder \(emulator, not paid\)/);
    expect(text.stdout).toContain('1 entry is written offline by the embedded emulator (placeholder text or your own model, not billed)');
  });

  it('should show the lock file alone, with a note, when no service is configured, alike through the bin', async () => {
    const dir = await syncedProject(['status offline one']);
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8'));
    lock.articles['status-offline-one'].status = 'pending';
    delete lock.articles['status-offline-one'].output;
    delete lock.articles['status-offline-one'].finishedAt;
    await writeFile(path.join(dir, 'articles.lock.json'), JSON.stringify(lock));
    const { inProcess: result, bin } = await runCliBothWays(['status'], { cwd: dir });
    expect(bin).toEqual(result);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/status-offline-one\s+pending\s+—/);
    expect(result.stderr).toContain('Not refreshed from the service');
  });
});

describe('astro-article-loader prune', () => {
  it('should show orphans and unreferenced files with --dry-run (alike through the bin), then remove exactly those', async () => {
    const dir = await syncedProject(['prune keep', 'prune drop']);
    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'), 'utf8');
    const dropped = JSON.parse(lockBefore).articles['prune-drop'];
    await writeFile(path.join(dir, 'articles.yaml'), manifestYaml(['prune keep']));

    const { inProcess: dryRun, bin } = await runCliBothWays(['prune', '--dry-run', '--json'], { cwd: dir });
    expect(bin).toEqual(dryRun);
    expect(dryRun.code).toBe(0);
    const planned = JSON.parse(dryRun.stdout);
    expect(planned).toMatchObject({
      schemaVersion: 1,
      command: 'prune',
      exitCode: 0,
      dryRun: true,
      orphans: [{ slug: 'prune-drop', keyword: 'prune drop', status: 'finished', articleId: dropped.articleId }],
      files: [path.join(dir, 'articles.cache', 'outputs', `${dropped.output.slice('sha256:'.length)}.json`)],
    });
    expect(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).toBe(lockBefore);

    const pruned = await runCliInProcess(['prune'], { cwd: dir });
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toContain('Removed 1 lock entry not in the manifest');
    expect(pruned.stdout).toContain('prune-drop');
    expect(Object.keys(JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles)).toEqual(['prune-keep']);
    expect(await outputFiles(dir)).toHaveLength(1);
    expect((await runCliInProcess(['prune'], { cwd: dir })).stdout).toContain('Nothing to prune');
  });
});

describe('astro-article-loader verify', () => {
  it('should pass a consistent lock file and cache, alike through the bin', async () => {
    const dir = await syncedProject(['verify ok one', 'verify ok two']);
    const { inProcess: result, bin } = await runCliBothWays(['verify'], { cwd: dir });
    expect(bin).toEqual(result);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('are consistent (2 articles)');
  });

  it('should exit 4 listing a damaged and a missing cache file', async () => {
    const dir = await syncedProject(['verify bad one', 'verify bad two']);
    const [first, second] = await outputFiles(dir);
    await writeFile(path.join(dir, 'articles.cache', 'outputs', first!), '{"html":"<p>edited</p>","polishedHtml":null,"updatedAt":1}\n');
    await rm(path.join(dir, 'articles.cache', 'outputs', second!));
    const result = await runCliInProcess(['verify', '--json'], { cwd: dir });
    expect(result.code).toBe(4);
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({ schemaVersion: 1, command: 'verify', exitCode: 4, ok: false, entries: 2 });
    expect(document.problems.map((p: { code: string }) => p.code).sort()).toEqual(['hash_mismatch', 'missing_output', 'missing_output']);
  });

  it('should exit 4 on a lock file that does not parse', async () => {
    const dir = await syncedProject(['verify corrupt']);
    await writeFile(path.join(dir, 'articles.lock.json'), '{"version": 1, "articles": {<<<<<<< HEAD\n');
    const result = await runCliInProcess(['verify'], { cwd: dir });
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('corrupt_lock');
  });

  it('should exit 4, not 1, on a lock file path that is a directory', async () => {
    const dir = await syncedProject(['verify directory']);
    const lockFile = path.join(dir, 'articles.lock.json');
    await rm(lockFile);
    await mkdir(lockFile);
    const result = await runCliInProcess(['verify', '--json'], { cwd: dir });
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout).problems).toEqual([expect.objectContaining({ code: 'lock_read_failed', severity: 'error', message: expect.stringContaining('it is a directory, not a file') })]);
  });
});
