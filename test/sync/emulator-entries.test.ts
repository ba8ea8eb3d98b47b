// Entries written by the offline emulator: marked, created again for real (within the rules), never mistaken for paid articles.
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/client.js';
import { startEmulator } from '../../src/emulator/index.js';
import { FrozenLockError, OverBudgetError, readLockFile } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

// The harness emulator plays both parts unless a test needs two: what differs is the `service` the sync is told it talks to.
let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const PLACEHOLDER_REASON = 'written by the offline emulator: placeholder text, not a paid article';

describe('entries written by the emulator', () => {
  it('should mark every entry created against the emulator, and no entry created against the real service', async () => {
    await h.sync(h.specs(['offline draft']), { service: 'emulator' });
    await h.sync(h.specs(['paid article']));
    const lock = await readLockFile(h.lockFile);
    expect(lock.articles['offline-draft']).toMatchObject({ status: 'finished', emulator: true });
    expect(lock.articles['paid-article']!.emulator).toBeUndefined();
  });

  it('should create an emulator-written article again against the real service, serving the placeholder until the real one is finished', async () => {
    const specs = h.specs(['offline draft']);
    // The offline emulator is another service than the real one: its ids and idempotency keys mean nothing there.
    const offlineEmulator = await startEmulator({ timing: 'instant', rateLimit: false });
    const offlineClient = createArticleClient({ baseUrl: offlineEmulator.url, apiKey: offlineEmulator.apiKey, idempotentCreates: true });
    let placeholderHtml: string;
    let placeholderId: string | undefined;
    try {
      const offline = await h.sync(specs, { service: 'emulator', client: offlineClient });
      placeholderHtml = (await offline.readOutput('offline-draft'))!.html;
      placeholderId = offline.articles[0]!.entry!.articleId;
    } finally {
      await offlineClient.close();
      await offlineEmulator.stop();
    }

    h.emulator.setTiming({ writingMs: 60_000 });
    const creating = await h.sync(specs, { wait: false });
    expect(creating.articles[0]).toMatchObject({ action: 'create', reason: { kind: 'emulator' }, outcome: 'pending' });
    expect(creating.articles[0]!.serve).toMatchObject({ articleId: placeholderId, current: false, emulator: true });
    expect((await creating.readOutput('offline-draft'))!.html).toBe(placeholderHtml);
    const pending = (await readLockFile(h.lockFile)).articles['offline-draft']!;
    expect(pending.emulator).toBeUndefined();
    expect(pending.previous).toMatchObject({ articleId: placeholderId, emulator: true });

    h.emulator.setTiming('instant');
    const done = await h.sync(specs);
    expect(done.articles[0]).toMatchObject({ outcome: 'finished', serve: { current: true, emulator: false } });
    expect(h.emulator.ledger.creations.map((c) => c.targetKeyword)).toEqual(['offline draft']);
  });

  it('should refuse to create emulator-written articles again in frozen mode, listing them with the reason', async () => {
    await h.sync(h.specs(['offline draft']), { service: 'emulator' });
    const lockBefore = await readFile(h.lockFile);
    const error = await h.sync(h.specs(['offline draft']), { frozen: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrozenLockError);
    expect((error as Error).message).toContain(`offline-draft (${PLACEHOLDER_REASON})`);
    expect(await readFile(h.lockFile)).toEqual(lockBefore);
  });

  it('should count emulator-written articles against the budget before any create', async () => {
    await h.sync(h.specs(['offline one', 'offline two']), { service: 'emulator' });
    const requestsBefore = h.emulator.requests.length;
    const error = await h.sync(h.specs(['offline one', 'offline two']), { budget: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverBudgetError);
    expect(h.emulator.requests.length).toBe(requestsBefore);
  });

  it('should reuse real articles when syncing against the emulator, with no request', async () => {
    await h.sync(h.specs(['paid article']));
    const requestsBefore = h.emulator.requests.length;
    const result = await h.sync(h.specs(['paid article']), { service: 'emulator' });
    expect(result.articles[0]!.outcome).toBe('reused');
    expect(h.emulator.requests.length).toBe(requestsBefore);
  });

  it('should never poll a real pending article from an offline sync, and leave its entry pending', async () => {
    h.emulator.setTiming({ writingMs: 60_000 });
    await h.sync(h.specs(['paid article']), { wait: false });
    const getsBefore = h.emulator.requests.filter((r) => r.route === 'getArticle').length;
    const result = await h.sync(h.specs(['paid article']), { service: 'emulator', onFailure: 'skip' });
    expect(result.articles[0]).toMatchObject({ outcome: 'pending', error: { code: 'offline' } });
    expect(h.emulator.requests.filter((r) => r.route === 'getArticle').length).toBe(getsBefore);
    expect((await readLockFile(h.lockFile)).articles['paid-article']!.status).toBe('pending');
  });
});
