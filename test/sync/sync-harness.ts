// A real emulator, a real client and a temp site directory for the sync integration tests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { articleRequestSchema } from '../../src/api/index.js';
import { createArticleClient, type ArticleClient, type ArticleClientOptions } from '../../src/api/client.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { syncArticles, type SyncEvent, type SyncOptions, type SyncResult, type SyncSpec } from '../../src/sync/index.js';

/** Polls fast enough for an emulator with instant timing. */
export const FAST_POLL = { minMs: 5, maxMs: 50, initialMs: 5 };

export interface Harness {
  emulator: RunningEmulator;
  client: ArticleClient;
  dir: string;
  lockFile: string;
  events: SyncEvent[];
  /** Specs for keywords; `extra` is merged into every request. */
  specs(keywords: string[], extra?: Record<string, unknown>): SyncSpec[];
  sync(specs: SyncSpec[], options?: Partial<SyncOptions>): Promise<SyncResult>;
  /** A second client (e.g. without idempotent creates) closed with the harness. */
  newClient(options?: Partial<ArticleClientOptions>): ArticleClient;
  close(): Promise<void>;
}

export function slugOf(keyword: string): string {
  return keyword.replace(/\s+/g, '-');
}

export function specsFor(keywords: string[], extra: Record<string, unknown> = {}): SyncSpec[] {
  return keywords.map((keyword) => ({
    slug: slugOf(keyword),
    keyword,
    request: articleRequestSchema.parse({ targetKeyword: keyword, ...extra }),
  }));
}

export async function startHarness(emulatorOptions: EmulatorOptions = {}): Promise<Harness> {
  const emulator = await startEmulator({ timing: 'instant', rateLimit: false, ...emulatorOptions });
  const dir = await mkdtemp(join(tmpdir(), 'aal-sync-'));
  const clients: ArticleClient[] = [];
  const newClient = (options: Partial<ArticleClientOptions> = {}): ArticleClient => {
    const client = createArticleClient({
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      idempotentCreates: true,
      retry: { baseDelayMs: 2, maxDelayMs: 20 },
      ...options,
    });
    clients.push(client);
    return client;
  };
  const client = newClient();
  const lockFile = join(dir, 'articles.lock.json');
  const events: SyncEvent[] = [];
  return {
    emulator,
    client,
    dir,
    lockFile,
    events,
    specs: specsFor,
    sync: (specs, options = {}) =>
      syncArticles({
        specs,
        lockFile,
        client,
        idempotentCreates: true,
        poll: FAST_POLL,
        onEvent: (event) => events.push(event),
        ...options,
      }),
    newClient,
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
