// `sync` on a real terminal (tmux) and under Ctrl-C: the display redraws in place, and an interrupted run never pays twice.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { journalPath, readLockFile } from '../../src/sync/index.js';
import { buildCli, cleanEnv, CLI, EMULATOR_ACCOUNTS, manifestYaml, runCli, serviceEnv, spawnCli, tempProject } from './cli-harness.js';

const run = promisify(execFile);
const TMUX = ['/usr/bin/tmux', '/usr/local/bin/tmux'].find((candidate) => existsSync(candidate));
/** A private tmux server: never touches anyone else's sessions. */
const SOCKET = `aal-cli-test-${process.pid}`;

let emulator: RunningEmulator;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
});

afterEach(() => {
  emulator.setFaults(undefined);
  emulator.setTiming('instant');
});

afterAll(async () => {
  if (TMUX !== undefined) await run(TMUX, ['-L', SOCKET, 'kill-server']).catch(() => undefined);
  await emulator?.stop();
  for (const cleanup of cleanups) await cleanup();
});

async function project(keywords: string[]): Promise<string> {
  const { dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(keywords) });
  cleanups.push(cleanup);
  return dir;
}

function created(keywords: string[]): number {
  return keywords.reduce((sum, keyword) => sum + emulator.ledger.creationsForKeyword(keyword).length, 0);
}

/** The total line of the live display ("⠋ Syncing 2/4 done · 4 created ██░░ 50%  1.2s"). */
const TOTAL_LINE = /(Syncing|Stopping) \d+\/\d+ done · /;

describe('astro-article-loader sync on a terminal', () => {
  it.skipIf(TMUX === undefined)('should redraw the live display in place and end in a clean summary', async () => {
    const keywords = ['tty alpha', 'tty beta', 'tty gamma', 'tty delta'];
    const dir = await project(keywords);
    // Seconds per article, so the display is seen moving; nothing below depends on how long it takes.
    emulator.setTiming({ queueDelayMs: 0, writingMs: { minMs: 3000, maxMs: 5000 } });
    const command = `${process.execPath} ${CLI} sync --poll-interval 1s; echo EXIT=$?; sleep 120`;
    await run(TMUX!, ['-L', SOCKET, 'new-session', '-d', '-s', 'sync', '-x', '100', '-y', '30', '-c', dir, command], {
      env: cleanEnv({ ...serviceEnv(emulator.url), TERM: 'xterm-256color' }),
    });
    const screens: string[] = [];
    for (;;) {
      const { stdout } = await run(TMUX!, ['-L', SOCKET, 'capture-pane', '-p', '-t', 'sync']);
      screens.push(stdout);
      if (stdout.includes('EXIT=')) break;
      await sleep(100);
    }
    await run(TMUX!, ['-L', SOCKET, 'kill-session', '-t', 'sync']);

    const live = screens.filter((screen) => TOTAL_LINE.test(screen));
    expect(live.length).toBeGreaterThan(1);
    // In place: the total line is on the screen once, never scrolled into copies.
    for (const screen of live) expect(screen.split('\n').filter((line) => TOTAL_LINE.test(line))).toHaveLength(1);
    expect(new Set(live.map((screen) => screen.split('\n').find((line) => TOTAL_LINE.test(line)))).size).toBeGreaterThan(1);
    expect(live.some((screen) => /tty-\w+\s+processing\s+.*\d+%/.test(screen))).toBe(true);

    const final = screens.at(-1)!;
    expect(final).toContain('EXIT=0');
    expect(final).toContain('✓ Synced 4 articles');
    expect(final).not.toMatch(TOTAL_LINE);
    expect(final).not.toContain('processing');
    for (const keyword of keywords) expect(final.split('\n').filter((line) => line.startsWith(`✓ ${keyword.replace(' ', '-')} finished`))).toHaveLength(1);
    expect(created(keywords)).toBe(4);
  });

  it.skipIf(TMUX === undefined)('should show creates in flight in the live display', async () => {
    const keywords = ['slow create one', 'slow create two'];
    const dir = await project(keywords);
    // Each create answers after 1.5 s, so the display is seen while the requests are in flight.
    emulator.setFaults({ routes: { createArticle: { slowResponses: { share: 1, delayMs: 1500 } } } });
    const command = `${process.execPath} ${CLI} sync --poll-interval 50ms; echo EXIT=$?; sleep 120`;
    await run(TMUX!, ['-L', SOCKET, 'new-session', '-d', '-s', 'creating', '-x', '100', '-y', '30', '-c', dir, command], {
      env: cleanEnv({ ...serviceEnv(emulator.url), TERM: 'xterm-256color' }),
    });
    const screens: string[] = [];
    for (;;) {
      const { stdout } = await run(TMUX!, ['-L', SOCKET, 'capture-pane', '-p', '-t', 'creating']);
      screens.push(stdout);
      if (stdout.includes('EXIT=')) break;
      await sleep(100);
    }
    await run(TMUX!, ['-L', SOCKET, 'kill-session', '-t', 'creating']);

    const live = screens.filter((screen) => TOTAL_LINE.test(screen));
    expect(live.some((screen) => /slow-create-one\s+creating/.test(screen) && /slow-create-two\s+creating/.test(screen))).toBe(true);
    expect(screens.at(-1)).toContain('EXIT=0');
    expect(screens.at(-1)).not.toMatch(/\bcreating\b/);
    expect(created(keywords)).toBe(2);
  });
});

describe('astro-article-loader sync and Ctrl-C', () => {
  it('should stop on SIGINT with a consistent lock file that a re-run resumes without a duplicate', async () => {
    const keywords = ['sigint one', 'sigint two', 'sigint three'];
    const dir = await project(keywords);
    emulator.setTiming({ queueDelayMs: 0, writingMs: 120_000 });
    const child = spawnCli(['sync', '--poll-interval', '100ms'], { cwd: dir, env: serviceEnv(emulator.url) });
    for (const keyword of keywords) await child.waitFor(new RegExp(`created\\s+${keyword.replace(' ', '-')} `));
    child.process.kill('SIGINT');
    const stopped = await child.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Stopped. 3 articles created in this run keep their ids');

    // The ids were journaled as they came; the stop folded the journal in, so the lock file alone holds them, ready to commit.
    expect(existsSync(journalPath(path.join(dir, 'articles.lock.json')))).toBe(false);
    const lock = await readLockFile(path.join(dir, 'articles.lock.json'));
    expect(Object.values(lock.articles).map((entry) => [entry.status, typeof entry.articleId])).toEqual([
      ['pending', 'string'],
      ['pending', 'string'],
      ['pending', 'string'],
    ]);
    expect(created(keywords)).toBe(3);

    emulator.setTiming('instant');
    const resumed = await runCli(['sync', '--poll-interval', '20ms'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('3 finished after waiting');
    expect(created(keywords)).toBe(3);
    expect(emulator.ledger.duplicates()).toEqual([]);
  });

  it('should quit at once on a second SIGINT, leaving a lock file a re-run completes without a duplicate', async () => {
    const keywords = ['double sigint'];
    const dir = await project(keywords);
    // The create hangs, so the first Ctrl-C has to wait for it; the second must not.
    emulator.setFaults({ routes: { createArticle: { slowResponses: { share: 1, delayMs: 60_000 } } } });
    const requestsBefore = emulator.requests.length;
    const child = spawnCli(['sync', '--poll-interval', '100ms'], { cwd: dir, env: serviceEnv(emulator.url) });
    await child.waitFor(/plan\s+1 to create/);
    while (!emulator.requests.slice(requestsBefore).some((r) => r.route === 'createArticle' && r.fault === 'slow')) await sleep(20);
    child.process.kill('SIGINT');
    await child.waitFor(/Stopping/);
    child.process.kill('SIGINT');
    const quit = await child.done;
    expect(quit.code).toBe(130);
    expect(quit.stderr).toContain('Quit at once');

    const lock = await readLockFile(path.join(dir, 'articles.lock.json'));
    expect(lock.articles['double-sigint']).toMatchObject({ status: 'unknown', error: { code: 'create_interrupted' } });

    emulator.setFaults(undefined);
    const plain = await runCli(['sync', '--poll-interval', '20ms'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain('--retry-unknown');
    const resumed = await runCli(['sync', '--idempotent-creates', '--poll-interval', '20ms'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(resumed.code).toBe(0);
    expect(created(keywords)).toBe(1);
    expect(emulator.ledger.duplicates()).toEqual([]);
  });
});
