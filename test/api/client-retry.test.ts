// Client retries over real HTTP: Retry-After, attempt and time bounds, and the create-safety policy.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArticleClient, ArticleClientOptions, ArticleRetryInfo } from '../../src/api/client.js';
import { ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, LINKS_PATH, clientFor, processingRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, closedPort, startScriptedServer } from './scripted-server.js';

const CREATED = { status: 200, body: { articleId: ARTICLE_ID } } as const;
const REQUEST = { targetKeyword: 'best hiking boots' };

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
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.stop();
});

describe('Retry-After', () => {
  it('should wait exactly the seconds a 429 asks for', async () => {
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': '7' }, body: '' });
    const controller = new AbortController();
    const retries: ArticleRetryInfo[] = [];
    // Abort inside onRetry (right before the sleep) so the test does not wait the 7 s.
    const client = makeClient({ onRetry: (info) => (retries.push(info), controller.abort()) });

    const error = await rejection(client.getArticle(ARTICLE_ID, { signal: controller.signal }));

    expect(retries).toEqual([{ operation: 'getArticle', attempt: 1, delayMs: 7000, reason: 'the service answered 429' }]);
    expect(error).toMatchObject({ code: 'aborted' });
  });

  it('should wait until the HTTP date a 503 names', async () => {
    const inOneMinute = new Date(Date.now() + 60_000).toUTCString();
    server.route('GET', ARTICLE_PATH, { status: 503, headers: { 'retry-after': inOneMinute }, body: '' });
    const controller = new AbortController();
    const delays: number[] = [];
    const client = makeClient({ onRetry: (info) => (delays.push(info.delayMs), controller.abort()) });

    await rejection(client.getArticle(ARTICLE_ID, { signal: controller.signal }));

    // An HTTP date has whole seconds, so the wait is within a second (plus slack) of a minute.
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(55_000);
    expect(delays[0]).toBeLessThanOrEqual(60_000);
  });

  it('should retry at once after Retry-After: 0', async () => {
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': '0' }, body: '' }, { status: 200, body: processingRecord() });
    const client = makeClient();

    const status = await client.getArticle(ARTICLE_ID);

    expect(status.status).toBe('processing');
    expect(server.requests).toHaveLength(2);
  });

  it('should retry at once after a Retry-After date in the past', async () => {
    const past = new Date(Date.now() - 60_000).toUTCString();
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': past }, body: '' }, { status: 200, body: processingRecord() });
    const client = makeClient();

    await client.getArticle(ARTICLE_ID);

    expect(server.requests).toHaveLength(2);
  });

  it('should fail at once with rate_limited when Retry-After seconds exceed the time budget', async () => {
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': '3600' }, body: { error: 'rate_limited', message: 'Too many requests' } });
    const client = makeClient({ retry: { maxElapsedMs: 60_000 } });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'rate_limited', status: 429, retryAfterMs: 3_600_000, retryable: true, attempts: 1 });
    expect(error.message).toContain('retry after 3600 s');
    expect(error.message).toContain('retry.maxElapsedMs = 60 s');
    expect(server.requests).toHaveLength(1);
  });

  it('should fail at once with rate_limited when a Retry-After date lies beyond the time budget', async () => {
    const inTwoHours = new Date(Date.now() + 7_200_000);
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': inTwoHours.toUTCString() }, body: '' });
    const client = makeClient({ retry: { maxElapsedMs: 60_000 } });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'rate_limited', attempts: 1 });
    expect(error.retryAfterMs).toBeGreaterThan(7_100_000);
    expect(server.requests).toHaveLength(1);
  });

  it('should fall back to backoff when Retry-After is unreadable', async () => {
    server.route('GET', ARTICLE_PATH, { status: 429, headers: { 'retry-after': 'soon' }, body: '' }, { status: 200, body: processingRecord() });
    const delays: number[] = [];
    const client = makeClient({ retry: { baseDelayMs: 4, maxDelayMs: 4 }, onRetry: (info) => delays.push(info.delayMs) });

    await client.getArticle(ARTICLE_ID);

    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeLessThan(4);
  });
});

describe('retry bounds', () => {
  it('should stop after maxAttempts attempts', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' });
    const attempts: number[] = [];
    const client = makeClient({ retry: { maxAttempts: 4 }, onRetry: (info) => attempts.push(info.attempt) });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'server_error', status: 503, attempts: 4 });
    expect(attempts).toEqual([1, 2, 3]);
    expect(server.requests).toHaveLength(4);
  });

  it('should not retry at all with maxAttempts 1', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' });
    const client = makeClient({ retry: { maxAttempts: 1 } });

    await rejection(client.getArticle(ARTICLE_ID));

    expect(server.requests).toHaveLength(1);
  });

  it('should not start another attempt once maxElapsedMs is spent', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' });
    const client = makeClient({ retry: { maxAttempts: 100, maxElapsedMs: 0 } });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'server_error', attempts: 1 });
    expect(error.message).toContain('retry time budget');
    expect(server.requests).toHaveLength(1);
  });

  it('should end a long run of failures within the time budget before maxAttempts', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' });
    const client = makeClient({ retry: { maxAttempts: 10_000, maxElapsedMs: 100, baseDelayMs: 20, maxDelayMs: 20 } });

    const error = await rejection(client.getArticle(ARTICLE_ID));

    expect(error).toMatchObject({ code: 'server_error' });
    expect(error.attempts).toBeLessThan(10_000);
    expect(server.requests).toHaveLength(error.attempts as number);
  });

  it('should keep each backoff delay under its doubling ceiling and under maxDelayMs', async () => {
    server.route('GET', ARTICLE_PATH, { status: 500, body: '' });
    const delays: number[] = [];
    const client = makeClient({ retry: { maxAttempts: 6, baseDelayMs: 3, maxDelayMs: 10 }, onRetry: (info) => delays.push(info.delayMs) });

    await rejection(client.getArticle(ARTICLE_ID));

    const ceilings = [3, 6, 10, 10, 10];
    expect(delays).toHaveLength(ceilings.length);
    delays.forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(ceilings[index] as number);
    });
  });

  it.each([400, 401, 402, 403, 404])('should never retry a %i of the links route', async (status) => {
    server.route('POST', LINKS_PATH, { status, body: '' });
    const client = makeClient();

    await rejection(client.createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1' }));

    expect(server.requests).toHaveLength(1);
  });

  it('should retry a 5xx of the links route', async () => {
    server.route('POST', LINKS_PATH, { status: 502, body: '' }, { status: 200, body: '<p>Linked</p>', headers: { 'content-type': 'text/html' } });
    const client = makeClient();

    expect(await client.createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1' })).toBe('<p>Linked</p>');
    expect(server.requests).toHaveLength(2);
  });

  it('should retry a reset connection of getArticle', async () => {
    server.route('GET', ARTICLE_PATH, { reset: true }, { status: 200, body: processingRecord() });
    const client = makeClient();

    const status = await client.getArticle(ARTICLE_ID);

    expect(status.status).toBe('processing');
    expect(server.requests).toHaveLength(2);
  });

  it('should retry a timed-out getArticle', async () => {
    server.route('GET', ARTICLE_PATH, { hang: true }, { status: 200, body: processingRecord() });
    const client = makeClient({ timeoutMs: 400 });

    await client.getArticle(ARTICLE_ID);

    expect(server.requests).toHaveLength(2);
  });

  it('should count requests and retries in stats', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' }, { status: 503, body: '' }, { status: 200, body: processingRecord() });
    const client = makeClient();

    await client.getArticle(ARTICLE_ID);

    expect({ requests: client.stats.requests, retries: client.stats.retries }).toEqual({ requests: 3, retries: 2 });
  });
});

describe('create safety', () => {
  it('should not retry a create answered with 503 and report the outcome as unknown', async () => {
    server.route('POST', CREATE_PATH, { status: 503, body: { error: 'unavailable', message: 'Try later' } }, CREATED);
    const client = makeClient();

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'create_outcome_unknown', status: 503, retryable: false, cause: { code: 'server_error', status: 503 } });
    expect(error.message).toContain('"best hiking boots"');
    expect(error.message).toContain('could create and bill a second article');
    // The way to turn on safe retries in each place a create is made from: the command line, the loader, the client.
    expect(error.message).toContain("(sync --idempotent-creates, the loader's idempotentCreates option, or the client's idempotentCreates with an idempotencyKey per create)");
    expect(server.requests).toHaveLength(1);
  });

  it('should not retry a create whose connection was reset after sending', async () => {
    server.route('POST', CREATE_PATH, { reset: true }, CREATED);
    const client = makeClient();

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'create_outcome_unknown', cause: { code: 'network_error' } });
    expect(server.requests).toHaveLength(1);
  });

  it('should not retry a create that timed out', async () => {
    server.route('POST', CREATE_PATH, { hang: true }, CREATED);
    const client = makeClient({ timeoutMs: 150 });

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'create_outcome_unknown', cause: { code: 'timeout' } });
    expect(server.requests).toHaveLength(1);
  });

  it('should not retry a create whose answer is truncated JSON', async () => {
    server.route('POST', CREATE_PATH, { status: 200, body: '{"articleId":"3f2b8c1e', headers: { 'content-type': 'application/json' } }, CREATED);
    const client = makeClient();

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'create_outcome_unknown', status: 200, cause: { code: 'invalid_response' } });
    expect(server.requests).toHaveLength(1);
  });

  it('should report a create answer without a valid articleId as an unknown outcome naming the field', async () => {
    server.route('POST', CREATE_PATH, { status: 200, body: { articleId: 'not-a-uuid' } });
    const client = makeClient();

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'create_outcome_unknown', cause: { code: 'invalid_response', fields: [{ path: 'articleId' }] } });
  });

  it('should retry a create answered with 429', async () => {
    server.route('POST', CREATE_PATH, { status: 429, headers: { 'retry-after': '0' }, body: '' }, CREATED);
    const client = makeClient();

    expect(await client.createArticle(REQUEST)).toBe(ARTICLE_ID);
    expect(server.requests).toHaveLength(2);
  });

  it('should retry a create whose connection was refused, then fail with network_error', async () => {
    const port = await closedPort();
    const retries: ArticleRetryInfo[] = [];
    // The circuit breaker left out of the picture (it has tests of its own).
    const client = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retry: { maxAttempts: 3 }, unreachableAfter: 10, onRetry: (info) => retries.push(info) });

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'network_error', retryable: true, attempts: 3, cause: { code: 'ECONNREFUSED' } });
    expect(error.message).toContain('ECONNREFUSED');
    expect(retries.map((info) => info.attempt)).toEqual([1, 2]);
    expect(client.stats.requests).toBe(3);
  });

  it('should retry a reset create with the same Idempotency-Key when the service honours it', async () => {
    server.route('POST', CREATE_PATH, { reset: true }, CREATED);
    const client = makeClient({ idempotentCreates: true });

    expect(await client.createArticle(REQUEST, { idempotencyKey: 'slug-best-hiking-boots-1' })).toBe(ARTICLE_ID);
    expect(server.requests.map((request) => request.headers['idempotency-key'])).toEqual(['slug-best-hiking-boots-1', 'slug-best-hiking-boots-1']);
  });

  it('should retry an idempotent create answered with 503 and unreadable JSON', async () => {
    server.route(
      'POST',
      CREATE_PATH,
      { status: 503, body: '' },
      { status: 200, body: '{"articleId":', headers: { 'content-type': 'application/json' } },
      CREATED,
    );
    const client = makeClient({ idempotentCreates: true });

    expect(await client.createArticle(REQUEST, { idempotencyKey: 'key-7' })).toBe(ARTICLE_ID);
    expect(server.requests).toHaveLength(3);
  });

  it('should throw the underlying retryable error when idempotent create retries run out', async () => {
    server.route('POST', CREATE_PATH, { status: 503, body: '' });
    const client = makeClient({ idempotentCreates: true, retry: { maxAttempts: 2 } });

    const error = await rejection(client.createArticle(REQUEST, { idempotencyKey: 'key-7' }));

    expect(error).toMatchObject({ code: 'server_error', retryable: true, attempts: 2 });
  });

  it('should not retry a reset create that has a key when idempotentCreates is off', async () => {
    server.route('POST', CREATE_PATH, { reset: true }, CREATED);
    const client = makeClient();

    const error = await rejection(client.createArticle(REQUEST, { idempotencyKey: 'key-7' }));

    expect(error).toMatchObject({ code: 'create_outcome_unknown' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers['idempotency-key']).toBe('key-7');
  });

  it('should not retry a reset create without a key even when idempotentCreates is on', async () => {
    server.route('POST', CREATE_PATH, { reset: true }, CREATED);
    const client = makeClient({ idempotentCreates: true });

    const error = await rejection(client.createArticle(REQUEST));

    expect(error).toMatchObject({ code: 'create_outcome_unknown' });
    expect(server.requests).toHaveLength(1);
  });

  it('should reject an idempotency key that is not visible ASCII without sending anything', async () => {
    const client = makeClient({ idempotentCreates: true });

    const error = await rejection(client.createArticle(REQUEST, { idempotencyKey: 'has space' }));

    expect(error).toMatchObject({ code: 'invalid_request', fields: [{ path: 'idempotencyKey' }] });
    expect(server.requests).toHaveLength(0);
  });
});
