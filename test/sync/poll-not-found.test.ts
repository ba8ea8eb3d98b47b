// A status route that answers 404 for a while (an id not yet everywhere behind a service's load balancer) must not
// mark a paid article failed, which would point the owner at a second, paid create: only 404s that persist through
// the poll loop's backoff do. Against a scripted service over real HTTP (the emulator never forgets an id it gave).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/index.js';
import { readLockFile, syncArticles } from '../../src/sync/index.js';
import { API_KEY, ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, finishedRecord } from '../api/client-fixtures.js';
import { type ScriptedServer, startScriptedServer } from '../api/scripted-server.js';
import { FAST_POLL, specsFor } from './sync-harness.js';

const NOT_FOUND = { status: 404, body: { error: 'not_found', message: 'no such article' } };

let server: ScriptedServer;
let dir: string;
beforeEach(async () => {
  server = await startScriptedServer();
  dir = await mkdtemp(join(tmpdir(), 'aal-not-found-'));
  server.route('POST', CREATE_PATH, { status: 201, body: { articleId: ARTICLE_ID } });
});
afterEach(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function run() {
  const client = createArticleClient({ baseUrl: server.url, apiKey: API_KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  try {
    return await syncArticles({ specs: specsFor(['best hiking boots']), lockFile: join(dir, 'articles.lock.json'), client, poll: FAST_POLL, onFailure: 'skip' });
  } finally {
    await client.close();
  }
}

const gets = () => server.requests.filter((request) => request.method === 'GET').length;

describe('a status route answering 404', () => {
  it('should keep polling through three 404s in a row and finish the article, created once', async () => {
    server.route('GET', ARTICLE_PATH, NOT_FOUND, NOT_FOUND, NOT_FOUND, { status: 200, body: finishedRecord() });
    const result = await run();
    expect(result.articles[0]).toMatchObject({ outcome: 'finished' });
    expect(gets()).toBe(4);
    expect(server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect((await readLockFile(join(dir, 'articles.lock.json'))).articles['best-hiking-boots']).toMatchObject({ status: 'finished', articleId: ARTICLE_ID });
  });

  it('should take the article as gone after four 404s in a row, saying how to attach it again for free', async () => {
    server.route('GET', ARTICLE_PATH, NOT_FOUND);
    const result = await run();
    expect(gets()).toBe(4);
    expect(result.articles[0]).toMatchObject({ outcome: 'failed', error: { code: 'not_found', message: expect.stringContaining('answered 404 for article') } });
    expect(result.articles[0]!.error!.message).toContain('adopt it with this id (free)');
    expect((await readLockFile(join(dir, 'articles.lock.json'))).articles['best-hiking-boots']).toMatchObject({ status: 'failed', articleId: ARTICLE_ID });
  });
});
