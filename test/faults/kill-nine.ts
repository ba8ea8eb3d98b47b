// Fault 2: a sync in a child process killed with SIGKILL at 20 seeded moments; the lock file must parse throughout, and a resumed run must finish every article, paying once.
import { readFile } from 'node:fs/promises';
import pLimit from 'p-limit';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleClient, type ArticleClient } from '../../src/api/client.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { createRandom } from '../../src/emulator/seeded-random.js';
import { journalPath, parseLockFile, syncArticles, type SyncResult } from '../../src/sync/index.js';
import { WEBHOOK_INTEGRATION, type Campaign } from './campaign.js';
import { startSyncChild } from './sync-child.js';
import { buildPackage } from '../loader/astro-site.js';

const KILLS = 20;
/** A killed child leaves the inter-process lock behind; the resumed run takes it over once stale (the minimum). */
const LOCK = { staleMs: 2_000, timeoutMs: 30_000 };
const ARTICLES = 12;
/** A full run prints at least 28 lines (ready, plan, 12 created, 12 finished, done, result): kills land before its end. */
const KILL_WINDOW_LINES = 26;
/** Rounds run at once: enough to overlap the stale-lock waits, few enough that a 2-core machine still kills children mid-run. */
const ROUNDS_AT_ONCE = 4;

interface Round {
  round: number;
  /** Output lines seen before the kill, and the extra delay after the last one. */
  afterLines: number;
  delayMs: number;
  killed: boolean;
  lockReads: number;
  lockParseFailures: string[];
  resumed: SyncResult;
}

/** Reads the lock file or its journal (or both) as fast as it can while a child writes them, and parses them together. */
function watchLockFile(file: string): { stop(): Promise<{ reads: number; failures: string[] }> } {
  let reads = 0;
  const failures: string[] = [];
  let running = true;
  const read = async (path: string): Promise<string | undefined> => {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') failures.push(`read: ${(error as Error).message}`);
      return undefined;
    }
  };
  const loop = (async () => {
    while (running) {
      const text = await read(file);
      const journal = await read(journalPath(file));
      if (text !== undefined || journal !== undefined) {
        reads += 1;
        try {
          parseLockFile(text, file, journal);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { reads, failures };
    },
  };
}

/** One round: a child sync killed after `afterLines` lines (plus `delayMs`), the lock file watched meanwhile, then a resumed run in this process. */
async function killRound(campaign: Campaign, at: { dir: string; round: number; afterLines: number; delayMs: number; emulator: RunningEmulator; client: ArticleClient }): Promise<Round> {
  const { dir, round, afterLines, delayMs } = at;
  const keywords = Array.from({ length: ARTICLES }, (_, i) => `kill round ${round} article ${i}`);
  const lockFile = join(dir, `round-${round}`, 'articles.lock.json');
  const watcher = watchLockFile(lockFile);
  const child = await startSyncChild(campaign, dir, `kill-${round}`, {
    lockFile,
    baseUrl: at.emulator.url,
    keywords,
    idempotentCreates: true,
    request: { integrationId: WEBHOOK_INTEGRATION },
    options: { budget: ARTICLES, concurrency: 3, idempotentCreates: true, poll: { minMs: 10, maxMs: 100, initialMs: 20 }, lock: LOCK },
  });
  await child.lines$(afterLines);
  await new Promise((resolve) => setTimeout(resolve, delayMs));
  const killed = child.process.exitCode === null && child.process.kill('SIGKILL');
  await child.exited;
  const watched = await watcher.stop();
  const resumed = await syncArticles({
    specs: campaign.specs(keywords),
    lockFile,
    client: at.client,
    budget: ARTICLES,
    idempotentCreates: true,
    poll: { minMs: 10, maxMs: 100, initialMs: 10 },
    lock: LOCK,
    onEvent: campaign.eventLogger(),
  });
  return { round, afterLines, delayMs, killed, lockReads: watched.reads, lockParseFailures: watched.failures, resumed };
}

export function killNineScenario(campaign: Campaign): void {
  describe('fault 2: kill -9 during a sync', () => {
    let emulator: RunningEmulator;
    let client: ArticleClient;
    const rounds: Round[] = [];

    beforeAll(async () => {
      await buildPackage();
      emulator = await campaign.emulator({ seed: 'fault-campaign-kill', timing: { queueDelayMs: 0, writingMs: { minMs: 40, maxMs: 250 } } });
      client = createArticleClient({ baseUrl: emulator.url, apiKey: campaign.apiKey, idempotentCreates: true, retry: { baseDelayMs: 10, maxDelayMs: 100 } });
      const dir = await campaign.tempDir('kill');
      const random = createRandom('fault-campaign-kill-moments');
      // After `ready` (line 1): somewhere from before the plan to the last finished article. Drawn up front, in round order,
      // so the seed alone decides every kill moment whatever order the rounds end in.
      const moments = Array.from({ length: KILLS }, () => ({ afterLines: 1 + random.int(0, KILL_WINDOW_LINES - 1), delayMs: random.int(0, 10) }));
      const started = Date.now();
      // Rounds are independent (own lock file, own keywords): a few run at once, since a resumed run mostly waits for the
      // killed child's lock to go stale (LOCK.staleMs), which one round after another spent 20 times in a row.
      const limit = pLimit(ROUNDS_AT_ONCE);
      rounds.push(...(await Promise.all(moments.map((moment, round) => limit(() => killRound(campaign, { dir, round, ...moment, emulator, client }))))));
      const lines = (round: Round): string => `${round.afterLines}${round.killed ? '' : '(done)'}`;
      console.log(
        `[faults] kill -9: ${KILLS} kills in ${Date.now() - started} ms, killed after output line ${rounds.map(lines).join(', ')}; ` +
          `${rounds.reduce((sum, r) => sum + r.lockReads, 0)} lock reads while children ran; resumed runs created ` +
          `${rounds.map((r) => r.resumed.totals.created).join(', ')} and waited for ${rounds.map((r) => r.resumed.totals.waited).join(', ')}`,
      );
    }, 240_000);

    afterAll(async () => {
      await client?.close();
    });

    it('should kill the child mid-run in most rounds', () => {
      // Kills land at output lines, not at times: a child that got to its end first is the exception.
      expect(rounds.filter((r) => r.killed).length).toBeGreaterThanOrEqual(KILLS - 3);
    });

    it('should leave a lock file that parses at every moment', () => {
      expect(rounds.flatMap((r) => r.lockParseFailures)).toEqual([]);
      expect(rounds.reduce((sum, r) => sum + r.lockReads, 0)).toBeGreaterThan(KILLS);
    });

    it('should finish every article in the resumed run', () => {
      for (const { round, resumed } of rounds) expect(resumed.articles.filter((a) => a.outcome !== 'finished' && a.outcome !== 'reused'), `round ${round}`).toEqual([]);
    });

    it('should create every article exactly once over all kills and resumes', () => {
      expect(emulator.ledger.creations).toHaveLength(KILLS * ARTICLES);
      expect(emulator.ledger.duplicates()).toEqual([]);
    });
  });
}
