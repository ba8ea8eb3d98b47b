import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLockFile, syncArticles } from '../../src/sync/index.js';
import { FAST_POLL, startHarness, type Harness } from './sync-harness.js';
import { childScript, spawnTsChild } from './ts-child.js';

const KEYWORDS = ['aeropress recipe', 'cold brew ratio', 'chemex filter', 'latte art', 'decaf process', 'bean storage'];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ timing: { queueDelayMs: 0, writingMs: { minMs: 100, maxMs: 400 } }, seed: 3 });
});
afterAll(async () => {
  await h.close();
});

describe('concurrent syncs of the same manifest', () => {
  it('should create each article exactly once across three processes, all of which end with every article', async () => {
    const configFile = join(h.dir, 'child.json');
    await writeFile(
      configFile,
      JSON.stringify({
        lockFile: h.lockFile,
        baseUrl: h.emulator.url,
        keywords: KEYWORDS,
        // Without idempotency keys the service cannot dedupe: only the inter-process lock prevents duplicates.
        options: { concurrency: 2, poll: { minMs: 20, maxMs: 100, initialMs: 20 }, idempotencyKeys: false, idempotentCreates: false },
      }),
    );
    const children = [0, 1, 2].map(() => spawnTsChild(childScript('sync-run.ts'), [configFile], { ARTICLES_API_KEY: h.emulator.apiKey }));
    const codes = await Promise.all(children.map((c) => c.exited));
    expect(codes, children.map((c) => c.output()).join('\n---\n')).toEqual([0, 0, 0]);
    expect(h.emulator.ledger.creations).toHaveLength(KEYWORDS.length);
    expect(h.emulator.ledger.duplicates()).toEqual([]);
    const lock = await readLockFile(h.lockFile);
    expect(Object.values(lock.articles).every((e) => e.status === 'finished')).toBe(true);
  });

  it('should create each article exactly once across concurrent syncs in one process', async () => {
    const lockFile = join(h.dir, 'in-process', 'articles.lock.json');
    const keywords = KEYWORDS.map((k) => `${k} again`);
    const before = h.emulator.ledger.creations.length;
    const run = () =>
      syncArticles({ specs: h.specs(keywords), lockFile, client: h.client, idempotencyKeys: false, poll: FAST_POLL });
    const billedBefore = h.emulator.ledger.totals.billedWords;
    const results = await Promise.all([run(), run(), run()]);
    expect(h.emulator.ledger.creations.length - before).toBe(keywords.length);
    expect(results.map((r) => r.totals.created).reduce((a, b) => a + b)).toBe(keywords.length);
    // Each run reports what it created and billed; the articles another run created are waited for, not billed again.
    expect(results.map((r) => r.totals.recordedWords).reduce((a, b) => a + b)).toBe(h.emulator.ledger.totals.billedWords - billedBefore);
  });
});
