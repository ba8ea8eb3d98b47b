// A service that stops answering: the run stops asking after a few attempts, serves what it has, and keeps every id.
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/client.js';
import { readLockFile, syncArticles } from '../../src/sync/index.js';
import { FAST_POLL, startHarness, type Harness } from './sync-harness.js';

const KEYWORDS = ['unreachable one', 'unreachable two', 'unreachable three'];

/** Accepts connections and never answers: the silent service. */
async function silentService(): Promise<{ url: string; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a service that stops answering', () => {
  let h: Harness;
  let silent: Awaited<ReturnType<typeof silentService>>;

  beforeEach(async () => {
    h = await startHarness();
    silent = await silentService();
  });

  afterEach(async () => {
    await silent.stop();
    await h.close();
  });

  it('should stop asking after three silent attempts, serve the cached articles, and keep the missing ones for the next run', async () => {
    await h.sync(h.specs(KEYWORDS));
    // One output lost from the cache (a fresh clone missing a file), and a new keyword to create.
    const lock = await readLockFile(h.lockFile);
    await rm(join(h.dir, 'articles.cache', 'outputs', `${lock.articles['unreachable-two']!.output!.slice(7)}.json`));
    const client = createArticleClient({ baseUrl: silent.url, apiKey: h.emulator.apiKey, timeoutMs: 150, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    try {
      const result = await syncArticles({ specs: h.specs([...KEYWORDS, 'unreachable four']), lockFile: h.lockFile, client, poll: FAST_POLL, onFailure: 'skip' });
      const outcome = (slug: string) => result.articles.find((a) => a.slug === slug);
      expect(outcome('unreachable-one')).toMatchObject({ outcome: 'reused' });
      expect(outcome('unreachable-three')).toMatchObject({ outcome: 'reused' });
      expect(outcome('unreachable-two')).toMatchObject({ outcome: 'failed', error: { code: 'service_unreachable' } });
      // The create timed out: it may have reached the service, so it is an unknown create, never a second one.
      expect(outcome('unreachable-four')?.outcome).toMatch(/^(unknown|failed)$/);
      expect(client.stats.requests).toBeLessThanOrEqual(4);
      // Reading the lost output asks no one now.
      await expect(result.readOutput('unreachable-two')).rejects.toMatchObject({ code: 'output_unavailable' });
      expect(client.stats.requests).toBeLessThanOrEqual(4);
      expect(await result.readOutput('unreachable-one')).toBeDefined();
      const after = await readLockFile(h.lockFile);
      expect(after.articles['unreachable-two']).toMatchObject({ status: 'finished', articleId: lock.articles['unreachable-two']!.articleId });
    } finally {
      await client.close();
    }
  });

  it('should not send the creates still queued once the service stopped answering, and bill nothing for them', async () => {
    const client = createArticleClient({ baseUrl: silent.url, apiKey: h.emulator.apiKey, timeoutMs: 150, unreachableAfter: 1, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    try {
      const result = await syncArticles({ specs: h.specs(KEYWORDS), lockFile: h.lockFile, client, poll: FAST_POLL, onFailure: 'skip', concurrency: 1 });
      const [first, ...rest] = result.articles;
      expect(first).toMatchObject({ outcome: 'unknown' });
      for (const article of rest) expect(article).toMatchObject({ outcome: 'failed', error: { code: 'service_unreachable' } });
      expect(client.stats.requests).toBe(1);
      // Nothing is recorded for creates never sent: the next run creates them normally.
      const lock = await readLockFile(h.lockFile);
      expect(Object.keys(lock.articles)).toEqual(['unreachable-one']);
    } finally {
      await client.close();
    }
  });
});
