// Client control over real HTTP: abort, per-attempt timeout, the shared concurrency limit, close.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArticleClient, ArticleClientOptions } from '../../src/api/client.js';
import { ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, LINKS_PATH, clientFor, processingRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, startScriptedServer } from './scripted-server.js';

const OTHER_ID = '0e1d2c3b-4a59-4687-9a6b-5c4d3e2f1a00';
const OTHER_PATH = `/api/articles/${OTHER_ID}`;

let server: ScriptedServer;
const clients: ArticleClient[] = [];

function makeClient(overrides: Partial<ArticleClientOptions> = {}): ArticleClient {
  const client = clientFor(server, overrides);
  clients.push(client);
  return client;
}

beforeEach(async () => {
  server = await startScriptedServer();
});

afterEach(async () => {
  // Sockets first: close() waits for requests still in flight, and some tests leave one hanging.
  await server.stop();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('abort', () => {
  it('should end a request in flight with aborted', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true });
    const client = makeClient();
    const controller = new AbortController();

    const pending = rejection(client.getArticle(ARTICLE_ID, { signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    const error = await pending;

    expect(error).toMatchObject({ code: 'aborted', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('should warn that an aborted create may have reached the service', async () => {
    server.route('POST', CREATE_PATH, { hang: true });
    const client = makeClient();
    const controller = new AbortController();

    const pending = rejection(client.createArticle({ targetKeyword: 'best hiking boots' }, { signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    const error = await pending;

    expect(error).toMatchObject({ code: 'aborted' });
    expect(error.message).toContain('may already have reached the service');
  });

  it('should send nothing when the signal is already aborted', async () => {
    const client = makeClient();

    const error = await rejection(client.getArticle(ARTICLE_ID, { signal: AbortSignal.abort() }));

    expect(error).toMatchObject({ code: 'aborted' });
    expect(server.requests).toHaveLength(0);
    expect(client.stats.requests).toBe(0);
  });

  it('should end a backoff sleep with aborted', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' });
    const controller = new AbortController();
    // A minute-long backoff: only the abort can end this test in time.
    const client = makeClient({ retry: { baseDelayMs: 60_000, maxDelayMs: 60_000 }, onRetry: () => controller.abort() });

    const error = await rejection(client.getArticle(ARTICLE_ID, { signal: controller.signal }));

    expect(error).toMatchObject({ code: 'aborted' });
    expect(error.message).toContain('while waiting to retry after: the service answered 503');
    expect(server.requests).toHaveLength(1);
  });

  it('should end the wait for a concurrency slot with aborted, sending nothing', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true });
    const client = makeClient({ concurrency: 1 });
    const first = new AbortController();
    const second = new AbortController();

    const holder = rejection(client.getArticle(ARTICLE_ID, { signal: first.signal }));
    await server.waitForRequests(1);
    const waiting = rejection(client.getArticle(OTHER_ID, { signal: second.signal }));
    second.abort();
    const error = await waiting;
    first.abort();
    await holder;

    expect(error).toMatchObject({ code: 'aborted' });
    expect(server.requests.map((request) => request.path)).toEqual([ARTICLE_PATH]);
  });
});

describe('timeout', () => {
  it('should fail with timeout after every attempt timed out', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true });
    const client = makeClient({ timeoutMs: 100, retry: { maxAttempts: 2 } });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'timeout', retryable: true, attempts: 2 });
    expect(error.message).toContain('within 100 ms');
    expect(server.requests).toHaveLength(2);
  });

  it('should time out an answer whose body never ends', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, partialBody: '{"config":', stall: true });
    const client = makeClient({ timeoutMs: 100, retry: { maxAttempts: 1 } });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'timeout' });
  });
});

describe('concurrency', () => {
  it('should never have more requests in flight than the limit', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: processingRecord(), delayMs: 20 });
    const client = makeClient({ concurrency: 3 });

    const results = await Promise.all(Array.from({ length: 12 }, () => client.getArticle(ARTICLE_ID)));

    expect(results).toHaveLength(12);
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight).toBeGreaterThanOrEqual(1);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('should share one limit across all operations of a client', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: processingRecord(), delayMs: 20 });
    server.route('POST', CREATE_PATH, { status: 200, body: { articleId: ARTICLE_ID }, delayMs: 20 });
    server.route('POST', LINKS_PATH, { status: 200, body: '<p>x</p>', headers: { 'content-type': 'text/html' }, delayMs: 20 });
    const client = makeClient({ concurrency: 2 });

    await Promise.all(
      Array.from({ length: 4 }, () => [
        client.getArticle(ARTICLE_ID),
        client.createArticle({ targetKeyword: 'best hiking boots' }),
        client.createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1' }),
      ]).flat(),
    );

    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('should not start an attempt (nor its timeout) until a slot is free', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true });
    server.route('GET', OTHER_PATH, { status: 200, body: processingRecord() });
    const client = makeClient({ concurrency: 1 });
    const controller = new AbortController();

    const holder = rejection(client.getArticle(ARTICLE_ID, { signal: controller.signal }));
    await server.waitForRequests(1);
    const queued = client.getArticle(OTHER_ID);
    await new Promise((resolve) => setImmediate(resolve));
    const startedWhileHeld = client.stats.requests;
    controller.abort();
    await holder;

    expect(startedWhileHeld).toBe(1);
    expect((await queued).status).toBe('processing');
    expect(client.stats.requests).toBe(2);
  });

  it('should not hold a slot during a backoff sleep', async () => {
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': '60' }, body: '' });
    server.route('GET', OTHER_PATH, { status: 200, body: processingRecord() });
    const controller = new AbortController();
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    const client = makeClient({ concurrency: 1, onRetry: () => sleeping() });

    const first = rejection(client.getArticle(ARTICLE_ID, { signal: controller.signal }));
    await asleep;
    // With the only slot held through the 60 s sleep, this would not finish before the test timeout.
    const other = await client.getArticle(OTHER_ID);
    controller.abort();

    expect(other.status).toBe('processing');
    expect(await first).toMatchObject({ code: 'aborted' });
  });
});

describe('close', () => {
  it('should fail later calls with a non-retryable network_error, sending nothing', async () => {
    const client = makeClient();
    await client.close();

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'network_error', retryable: false });
    expect(error.message).toContain('createArticleClient');
    expect(server.requests).toHaveLength(0);
  });

  it('should let a second close resolve', async () => {
    const client = makeClient();
    await client.close();

    await expect(client.close()).resolves.toBeUndefined();
  });
});
