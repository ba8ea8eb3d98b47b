// The engine's checkpoint hook as autopilot uses it: before each create reaches the service, the lock file on disk holds its intent and a checkpoint that read it has been pushed; checkpoints never overlap; the last one holds every id.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/client.js';
import { Checkpoints } from '../../src/autopilot/checkpoints.js';
import type { RunBranch } from '../../src/autopilot/run-branch.js';
import { syncArticles, type LockFile } from '../../src/sync/index.js';
import { FAST_POLL, slugOf, startHarness, type Harness } from '../sync/sync-harness.js';

type Event =
  | { type: 'received'; slug: string; onDisk: LockFile['articles'][string] | undefined }
  | { type: 'checkpoint-start' }
  | { type: 'checkpoint-pushed'; committed: LockFile['articles'] };

let harness: Harness;
let proxy: Server;
let events: Event[];

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A proxy before the emulator that notes, as each create arrives, what the lock file on disk says of its article. */
async function startProxy(target: string, lockFile: string): Promise<string> {
  proxy = createServer((req, res) => {
    void (async () => {
      const sent = await body(req);
      if (req.method === 'POST' && (req.url ?? '').startsWith('/api/articles')) {
        const slug = slugOf((JSON.parse(sent.toString('utf8')) as { targetKeyword: string }).targetKeyword);
        const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as LockFile;
        events.push({ type: 'received', slug, onDisk: lock.articles[slug] });
      }
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as [string, string][]);
      const answer = await fetch(`${target}${req.url}`, { method: req.method!, headers, ...(sent.length > 0 ? { body: new Uint8Array(sent) } : {}) });
      const text = Buffer.from(await answer.arrayBuffer());
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    })();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

/** A run branch whose checkpoint "commits" the lock file as it is on disk, then yields before it is "pushed". */
function recordingBranch(lockFile: string): RunBranch {
  return {
    startedFrom: 'branch',
    checkpoint: async () => {
      events.push({ type: 'checkpoint-start' });
      const committed = (JSON.parse(await readFile(lockFile, 'utf8')) as LockFile).articles;
      await new Promise((resolve) => setImmediate(resolve));
      events.push({ type: 'checkpoint-pushed', committed });
      return true;
    },
    changedInRun: () => true,
    unmerged: async () => undefined,
  };
}

beforeEach(async () => {
  harness = await startHarness();
  events = [];
});

afterEach(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await harness.close();
});

describe('the create phase with autopilot checkpoints', () => {
  it('should hold each create until a pushed checkpoint committed its intent, and push every id after the last create', async () => {
    const url = await startProxy(harness.emulator.url, harness.lockFile);
    const client = createArticleClient({ baseUrl: url, apiKey: harness.emulator.apiKey, retry: { baseDelayMs: 2, maxDelayMs: 20 } });
    const checkpoints = new Checkpoints(recordingBranch(harness.lockFile), () => undefined);
    const keywords = ['hook one', 'hook two', 'hook three', 'hook four', 'hook five'];
    try {
      await syncArticles({ specs: harness.specs(keywords), lockFile: harness.lockFile, client, poll: FAST_POLL, concurrency: 2, wait: false, afterLockWrite: () => checkpoints.ask('create') });
    } finally {
      await client.close();
    }

    const received = events.filter((event) => event.type === 'received');
    expect(received.map((event) => event.slug).sort()).toEqual(keywords.map(slugOf).sort());
    for (const event of received) {
      expect(event.onDisk?.status, `${event.slug} on disk when the service received its create`).toBe('unknown');
      const before = events.slice(0, events.indexOf(event));
      const pushed = before.filter((e): e is Extract<Event, { type: 'checkpoint-pushed' }> => e.type === 'checkpoint-pushed');
      expect(pushed.some((checkpoint) => checkpoint.committed[event.slug] !== undefined), `a pushed checkpoint holds ${event.slug}'s intent before its create`).toBe(true);
    }
    // One checkpoint at a time: every start is followed by its push before the next start.
    const marks = events.filter((event) => event.type !== 'received').map((event) => event.type);
    expect(marks.join(' ')).toMatch(/^(checkpoint-start checkpoint-pushed ?)+$/);
    const last = events.findLast((event): event is Extract<Event, { type: 'checkpoint-pushed' }> => event.type === 'checkpoint-pushed')!;
    for (const keyword of keywords) expect(last.committed[slugOf(keyword)]).toMatchObject({ status: 'pending', articleId: expect.any(String) });
    expect(harness.emulator.ledger.creations).toHaveLength(5);
  });

  it('should stop creating when a checkpoint fails, keeping the ids of the creates already sent', async () => {
    let checkpointsMade = 0;
    const failing: RunBranch = {
      startedFrom: 'branch',
      checkpoint: async () => {
        checkpointsMade += 1;
        if (checkpointsMade === 2) throw new Error('push refused');
        return true;
      },
      changedInRun: () => true,
      unmerged: async () => undefined,
    };
    const checkpoints = new Checkpoints(failing, () => undefined);
    const keywords = ['halt one', 'halt two', 'halt three'];
    await expect(harness.sync(harness.specs(keywords), { concurrency: 1, wait: false, afterLockWrite: () => checkpoints.ask('create') })).rejects.toThrow('push refused');
    // The first create left after the first checkpoint; the second checkpoint failed before the second create could leave.
    expect(harness.emulator.ledger.creations).toHaveLength(1);
    const lock = JSON.parse(await readFile(harness.lockFile, 'utf8')) as LockFile;
    expect(lock.articles[slugOf('halt one')]).toMatchObject({ status: 'pending', articleId: harness.emulator.ledger.creations[0]!.articleId });
  });
});
