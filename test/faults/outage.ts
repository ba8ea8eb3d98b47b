// Fault 4: the service is down; the build serves everything from the lock file and the cache and reports only articles never generated.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleClient, type ArticleClient } from '../../src/api/client.js';
import { SyncFailedError, syncArticles, type SyncResult } from '../../src/sync/index.js';
import type { Campaign } from './campaign.js';

const GENERATED = Array.from({ length: 8 }, (_, i) => `outage generated article ${i}`);
/** Created before the outage but not finished: it has an id, never an output. */
const UNFINISHED = 'outage unfinished article';
const NEW = ['outage new article 1', 'outage new article 2'];
const NEVER_GENERATED = [UNFINISHED, ...NEW].map((k) => k.replace(/\s+/g, '-')).sort();

export function outageScenario(campaign: Campaign): void {
  describe('fault 4: an outage', () => {
    let lockFile: string;
    let lockBefore: string;
    let client: ArticleClient;
    let skipped: SyncResult;
    let failed: unknown;
    let durationMs = 0;

    beforeAll(async () => {
      const emulator = await campaign.emulator({ seed: 'fault-campaign-outage', timing: { queueDelayMs: 0, writingMs: 20 } });
      const dir = await campaign.tempDir('outage');
      lockFile = join(dir, 'articles.lock.json');
      const before = createArticleClient({ baseUrl: emulator.url, apiKey: campaign.apiKey, idempotentCreates: true });
      const common = { lockFile, client: before, idempotentCreates: true, poll: { minMs: 10, maxMs: 100, initialMs: 10 }, onEvent: campaign.eventLogger() };
      await syncArticles({ ...common, specs: campaign.specs(GENERATED) });
      emulator.pause();
      await syncArticles({ ...common, specs: campaign.specs([...GENERATED, UNFINISHED]), wait: false });
      await before.close();
      await emulator.stop();
      lockBefore = await readFile(lockFile, 'utf8');

      // The same address, nothing listening: every request is refused.
      client = createArticleClient({ baseUrl: emulator.url, apiKey: campaign.apiKey, idempotentCreates: true, retry: { baseDelayMs: 5, maxDelayMs: 40 } });
      const options = {
        specs: campaign.specs([...GENERATED, UNFINISHED, ...NEW]),
        lockFile,
        client,
        idempotentCreates: true,
        poll: { minMs: 10, maxMs: 100, initialMs: 10 },
        onEvent: campaign.eventLogger(),
      };
      const started = Date.now();
      skipped = await syncArticles({ ...options, onFailure: 'skip' });
      durationMs = Date.now() - started;
      failed = await syncArticles({ ...options, onFailure: 'fail' }).then(
        () => undefined,
        (error: unknown) => campaign.caught(error),
      );
      console.log(
        `[faults] outage: ${durationMs} ms with the service down, ${skipped.totals.requests} refused attempts (${skipped.totals.retries} retries); ` +
          `outcomes ${JSON.stringify(Object.fromEntries(['reused', 'failed', 'pending', 'unknown'].map((o) => [o, skipped.articles.filter((a) => a.outcome === o).length])))}`,
      );
    }, 120_000);

    afterAll(async () => {
      await client?.close();
    });

    it('should serve every generated article from the lock file and the cache', async () => {
      const generated = skipped.articles.filter((a) => !NEVER_GENERATED.includes(a.slug));
      expect(generated.map((a) => a.outcome)).toEqual(GENERATED.map(() => 'reused'));
      for (const article of generated) expect((await skipped.readOutput(article.slug))?.html, article.slug).toMatch(/<h1\b/);
    });

    it('should report only the articles that were never generated, with onFailure skip', () => {
      expect(skipped.failures.map((f) => f.slug).sort()).toEqual(NEVER_GENERATED);
      for (const failure of skipped.failures) expect(failure.error?.message, failure.slug).toBeTruthy();
    });

    it('should fail listing only the articles that were never generated, with onFailure fail', () => {
      expect(failed).toBeInstanceOf(SyncFailedError);
      const error = failed as SyncFailedError;
      expect(error.result.failures.map((f) => f.slug).sort()).toEqual(NEVER_GENERATED);
      for (const slug of NEVER_GENERATED) expect(error.message).toContain(slug);
      for (const keyword of GENERATED) expect(error.message).not.toContain(keyword.replace(/\s+/g, '-'));
    });

    it('should leave the lock file byte for byte as it was', async () => {
      expect(await readFile(lockFile, 'utf8')).toBe(lockBefore);
    });
  });
}
