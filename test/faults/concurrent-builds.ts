// Fault 3: three builds of the same manifest at once, in three processes: each article is created exactly once.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { readLockFile } from '../../src/sync/index.js';
import { WEBHOOK_INTEGRATION, type Campaign } from './campaign.js';
import { startSyncChild, type SyncChild } from './sync-child.js';
import { buildPackage } from '../loader/astro-site.js';

const BUILDS = 3;
const ARTICLES = 12;

export function concurrentBuildsScenario(campaign: Campaign): void {
  describe('fault 3: three concurrent builds of one manifest', () => {
    let emulator: RunningEmulator;
    let lockFile: string;
    const keywords = Array.from({ length: ARTICLES }, (_, i) => `concurrent build article ${i}`);
    const children: SyncChild[] = [];
    const exits: (number | string)[] = [];

    beforeAll(async () => {
      await buildPackage();
      emulator = await campaign.emulator({ seed: 'fault-campaign-concurrent', timing: { queueDelayMs: 0, writingMs: { minMs: 50, maxMs: 300 } } });
      const dir = await campaign.tempDir('concurrent');
      lockFile = join(dir, 'articles.lock.json');
      const started = Date.now();
      // No idempotency keys: only the inter-process lock stands between three builds and three bills.
      for (let build = 0; build < BUILDS; build++) {
        children.push(
          await startSyncChild(campaign, dir, `build-${build}`, {
            lockFile,
            baseUrl: emulator.url,
            keywords,
            idempotentCreates: false,
            request: { integrationId: WEBHOOK_INTEGRATION },
            options: { budget: ARTICLES, concurrency: 4, idempotencyKeys: false, poll: { minMs: 10, maxMs: 100, initialMs: 20 }, lock: { staleMs: 5_000, timeoutMs: 60_000 } },
          }),
        );
      }
      exits.push(...(await Promise.all(children.map((child) => child.exited))));
      const results = children.map((child) => child.lines.find((line) => line.startsWith('result ')) ?? child.lines.at(-1));
      console.log(`[faults] concurrent builds: ${BUILDS} processes in ${Date.now() - started} ms; ${emulator.requests.length} requests; totals ${results.join(' | ')}`);
    }, 120_000);

    it('should end every build successfully', () => {
      expect(exits, children.map((c) => c.lines.join('\n')).join('\n---\n')).toEqual(Array.from({ length: BUILDS }, () => 0));
    });

    it('should create each article exactly once', () => {
      expect(emulator.ledger.creations.map((c) => c.targetKeyword).sort()).toEqual([...keywords].sort());
      expect(emulator.ledger.duplicates()).toEqual([]);
    });

    it('should leave every article finished in the shared lock file', async () => {
      const lock = await readLockFile(lockFile);
      expect(Object.values(lock.articles).map((e) => e.status)).toEqual(Array.from({ length: ARTICLES }, () => 'finished'));
    });
  });
}
