import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSeededRandom } from './seeded-delays.js';
import { parseLockFile, serializeLockFile, syncArticles, type LockFile } from '../../src/sync/index.js';
import { FAST_POLL, startHarness, type Harness } from './sync-harness.js';
import { childScript, spawnTsChild, type TsChild } from './ts-child.js';

const KEYWORDS = ['burr grinder', 'pour over kettle', 'milk frother', 'espresso tamper', 'coffee scale'];
const LOCK_OPTIONS = { staleMs: 2_000, timeoutMs: 60_000 };

let h: Harness;
let configFile: string;

/** Orphan entries that make every lock write a few hundred kilobytes, so kills land mid-write too. */
function ballast(): LockFile {
  const articles: LockFile['articles'] = {};
  for (let i = 0; i < 1500; i++) {
    articles[`zz-archived-${String(i).padStart(4, '0')}`] = {
      keyword: `archived article ${i}`,
      status: 'finished',
      hash: `sha256:${'f'.repeat(64)}`,
      articleId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      attempt: 1,
      createdAt: '2024-06-01T00:00:00.000Z',
      updatedAt: '2024-06-01T00:00:00.000Z',
      finishedAt: '2024-06-01T00:00:00.000Z',
      output: `sha256:${'e'.repeat(64)}`,
    };
  }
  return { version: 1, articles };
}

beforeAll(async () => {
  h = await startHarness({ timing: { queueDelayMs: 0, writingMs: { minMs: 150, maxMs: 600 } }, seed: 42 });
  await writeFile(h.lockFile, serializeLockFile(ballast()));
  configFile = join(h.dir, 'child.json');
  await writeFile(
    configFile,
    JSON.stringify({
      lockFile: h.lockFile,
      baseUrl: h.emulator.url,
      keywords: KEYWORDS,
      options: { concurrency: 2, poll: { minMs: 20, maxMs: 120, initialMs: 20 }, lock: LOCK_OPTIONS },
    }),
  );
});
afterAll(async () => {
  await h.close();
});

function startChild(): TsChild {
  return spawnTsChild(childScript('sync-run.ts'), [configFile], { ARTICLES_API_KEY: h.emulator.apiKey });
}

async function killAfter(trigger: Promise<unknown>, child: TsChild, delayMs = 0): Promise<void> {
  await trigger.catch(() => undefined);
  if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  child.process.kill('SIGKILL');
  await child.exited;
}

async function expectConsistent(): Promise<void> {
  // Parses (and validates) every time, whatever moment the kill hit.
  parseLockFile(await readFile(h.lockFile, 'utf8'), h.lockFile);
  expect(h.emulator.ledger.duplicates()).toEqual([]);
  expect(h.emulator.ledger.creations.length).toBeLessThanOrEqual(KEYWORDS.length);
}

describe('a sync killed with SIGKILL', () => {
  it('should never create a duplicate and always leave a parsable lock file, at any kill point', async () => {
    // Right after a create returned (its id is being written).
    let child = startChild();
    await killAfter(child.waitFor(/^event created /), child);
    await expectConsistent();

    // While polling.
    child = startChild();
    await killAfter(child.waitFor(/^event (progress|finished) /), child);
    await expectConsistent();

    // At seeded moments after planning: during creates, lock writes and polls.
    const random = createSeededRandom(7);
    for (let round = 0; round < 5; round++) {
      child = startChild();
      await killAfter(child.waitFor(/^event plan$/), child, Math.floor(random() * 120));
      await expectConsistent();
    }

    const resumed = await syncArticles({
      specs: h.specs(KEYWORDS),
      lockFile: h.lockFile,
      client: h.client,
      idempotentCreates: true,
      poll: FAST_POLL,
      lock: LOCK_OPTIONS,
    });
    expect(resumed.articles.every((a) => a.entry?.status === 'finished')).toBe(true);
    expect(h.emulator.ledger.creations).toHaveLength(KEYWORDS.length);
    expect(h.emulator.ledger.duplicates()).toEqual([]);
    expect(resumed.orphans).toHaveLength(1500);
  });
});
