// The API key never leaves the client inside an error, its cause chain or retry info, even when the service echoes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArticleClient, ArticleClientOptions, ArticleRetryInfo } from '../../src/api/client.js';
import { API_KEY, ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, LINKS_PATH, clientFor, expectNoSecret, processingRecord, rejection } from './client-fixtures.js';
import { type RecordedRequest, type ScriptedServer, closedPort, startScriptedServer } from './scripted-server.js';

let server: ScriptedServer;
const clients: ArticleClient[] = [];
const retries: ArticleRetryInfo[] = [];

function makeClient(overrides: Partial<ArticleClientOptions> = {}): ArticleClient {
  const client = clientFor(server, { retry: { maxAttempts: 2 }, onRetry: (info) => retries.push(info), ...overrides });
  clients.push(client);
  return client;
}

/** What a careless service might do: repeat the Authorization header back in its answer. */
const echo = (request: RecordedRequest): string => String(request.headers.authorization);

beforeAll(async () => {
  server = await startScriptedServer();
});

afterAll(async () => {
  await server.stop();
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

const SCENARIOS: { name: string; code: string; run: () => Promise<unknown> }[] = [
  {
    name: 'a 400 echoing the key in message, code and fields',
    code: 'invalid_request',
    run: () => {
      server.route('POST', CREATE_PATH, (request) => ({
        status: 400,
        body: { error: echo(request), message: `Bad request from ${echo(request)}`, fields: [{ path: echo(request), message: echo(request) }] },
      }));
      return makeClient().createArticle({ targetKeyword: 'best hiking boots' });
    },
  },
  {
    name: 'a 401 echoing the key in a text body',
    code: 'unauthorized',
    run: () => {
      server.route('GET', ARTICLE_PATH, (request) => ({ status: 401, body: `Invalid key: ${echo(request)}`, headers: { 'content-type': 'text/plain' } }));
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'a 402 echoing the key',
    code: 'insufficient_credits',
    run: () => {
      server.route('POST', LINKS_PATH, (request) => ({ status: 402, body: { error: 'insufficient_credits', message: `No credits for ${echo(request)}` } }));
      return makeClient().createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1' });
    },
  },
  {
    name: 'a 403 echoing the key',
    code: 'plan_required',
    run: () => {
      server.route('POST', LINKS_PATH, (request) => ({ status: 403, body: { error: 'plan_required', message: `Plan of ${echo(request)}` } }));
      return makeClient().createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1' });
    },
  },
  {
    name: 'a 404 echoing the key',
    code: 'not_found',
    run: () => {
      server.route('GET', ARTICLE_PATH, (request) => ({ status: 404, body: { error: 'not_found', message: `Nothing for ${echo(request)}` } }));
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'a 429 echoing the key',
    code: 'rate_limited',
    run: () => {
      server.route('GET', ARTICLE_PATH, (request) => ({ status: 429, headers: { 'retry-after': '0' }, body: { message: `Slow down ${echo(request)}` } }));
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'a 503 echoing the key',
    code: 'server_error',
    run: () => {
      server.route('GET', ARTICLE_PATH, (request) => ({ status: 503, body: `Down for ${echo(request)}`, headers: { 'content-type': 'text/plain' } }));
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'a refused connection',
    code: 'network_error',
    run: async () => makeClient({ baseUrl: `http://127.0.0.1:${await closedPort()}` }).getArticle(ARTICLE_ID),
  },
  {
    name: 'a reset connection',
    code: 'network_error',
    run: () => {
      server.route('GET', ARTICLE_PATH, { reset: true });
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'a timeout',
    code: 'timeout',
    run: () => {
      server.route('GET', ARTICLE_PATH, { hang: true });
      return makeClient({ timeoutMs: 100 }).getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'an answer that is not JSON and quotes the key',
    code: 'invalid_response',
    run: () => {
      server.route('GET', ARTICLE_PATH, (request) => ({ status: 200, body: echo(request), headers: { 'content-type': 'application/json' } }));
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'an answer of the wrong shape holding the key',
    code: 'invalid_response',
    run: () => {
      server.route('GET', ARTICLE_PATH, (request) => ({ status: 200, body: { config: { targetKeyword: echo(request) }, status: echo(request), [echo(request)]: 1 } }));
      return makeClient().getArticle(ARTICLE_ID);
    },
  },
  {
    name: 'an abort in flight',
    code: 'aborted',
    run: async () => {
      server.route('GET', ARTICLE_PATH, { hang: true });
      const controller = new AbortController();
      const pending = makeClient().getArticle(ARTICLE_ID, { signal: controller.signal });
      const before = server.requests.length;
      await server.waitForRequests(before + 1);
      controller.abort(new Error(`reason without the key`));
      return pending;
    },
  },
  {
    name: 'a create whose outcome is unknown after a 503 echoing the key',
    code: 'create_outcome_unknown',
    run: () => {
      server.route('POST', CREATE_PATH, (request) => ({ status: 503, body: { message: `Failed for ${echo(request)}` } }));
      return makeClient().createArticle({ targetKeyword: 'best hiking boots' });
    },
  },
  {
    name: 'a create whose connection was reset',
    code: 'create_outcome_unknown',
    run: () => {
      server.route('POST', CREATE_PATH, { reset: true });
      return makeClient().createArticle({ targetKeyword: 'best hiking boots' });
    },
  },
  {
    name: 'a call on a closed client',
    code: 'network_error',
    run: async () => {
      const client = makeClient();
      await client.close();
      return client.getArticle(ARTICLE_ID);
    },
  },
];

describe('key redaction', () => {
  it.each(SCENARIOS)('should keep the key out of the $code error for $name', async ({ code, run }) => {
    const error = await rejection(run());

    expect(error).toMatchObject({ code });
    expectNoSecret(error);
  });

  it('should have sent the key to the server, so the checks above were not vacuous', () => {
    expect(server.requests.length).toBeGreaterThan(0);
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
  });

  it('should keep the key out of the client object itself', () => {
    expectNoSecret(makeClient());
  });

  it('should keep the key out of every onRetry reason', () => {
    expect(retries.length).toBeGreaterThan(0);
    expectNoSecret(retries);
  });
});

describe('key redaction in status records', () => {
  /** A failed record as a careless service might send it: the Authorization header repeated in its error. */
  function failedRecord(request: RecordedRequest, changes: Record<string, unknown>): Record<string, unknown> {
    return { ...processingRecord(), status: 'failed', statusDetail: 'Generation failed', error: { code: 'bad_request', message: `rejected: ${echo(request)}` }, ...changes };
  }

  it('should redact the key in every string and property name of a failed record\'s error, keeping the rest', async () => {
    server.route('GET', ARTICLE_PATH, (request) => ({
      status: 200,
      body: failedRecord(request, {
        error: { code: 'bad_request', message: `rejected: ${echo(request)}`, details: [{ header: echo(request), attempts: 2 }], [echo(request)]: true },
      }),
    }));
    const record = await makeClient().getArticle(ARTICLE_ID);
    expectNoSecret(record);
    expect(record.error).toEqual({
      code: 'bad_request',
      message: 'rejected: Bearer [redacted]',
      details: [{ header: 'Bearer [redacted]', attempts: 2 }],
      'Bearer [redacted]': true,
    });
  });

  it('should redact the key in statusDetail', async () => {
    server.route('GET', ARTICLE_PATH, (request) => ({ status: 200, body: failedRecord(request, { statusDetail: `Refused ${echo(request)}` }) }));
    const record = await makeClient().getArticle(ARTICLE_ID);
    expect(record.statusDetail).toBe('Refused Bearer [redacted]');
  });

  it('should keep statusDetail as one line of at most 200 characters, with no escape sequence, carriage return or bidi override', async () => {
    const hostile = `\u001b]0;owned\u0007\u001b[2J\u001b[31mboom\r\nFAKE LINE\u0000 \u202Eevil\u2066 ${'x'.repeat(5_000)}`;
    server.route('GET', ARTICLE_PATH, { status: 200, body: { ...processingRecord(), statusDetail: hostile } });
    const record = await makeClient().getArticle(ARTICLE_ID);
    expect(record.statusDetail).toMatch(/^\]0;owned \[2J \[31mboom FAKE LINE evil x+…$/);
    expect([...record.statusDetail]).toHaveLength(200);
  });

  it("should give an error body's message on one line, without its control characters", async () => {
    server.route('POST', CREATE_PATH, { status: 400, body: { error: 'invalid_parameter', message: 'bad\u001b[2J\rkeyword\nFAKE' } });
    const error = await rejection(makeClient().createArticle({ targetKeyword: 'best hiking boots' }));
    expect(error.message).toContain('bad [2J keyword FAKE');
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('should redact an error that is a bare string', async () => {
    server.route('GET', ARTICLE_PATH, (request) => ({ status: 200, body: failedRecord(request, { error: `rejected: ${echo(request)}` }) }));
    const record = await makeClient().getArticle(ARTICLE_ID);
    expect(record.error).toBe('rejected: Bearer [redacted]');
  });

  it('should cut an error nested deeper than its bound instead of keeping what is below', async () => {
    server.route('GET', ARTICLE_PATH, (request) => {
      let error: unknown = echo(request);
      for (let depth = 0; depth < 50; depth++) error = { inner: error };
      return { status: 200, body: failedRecord(request, { error }) };
    });
    const record = await makeClient().getArticle(ARTICLE_ID);
    expectNoSecret(record);
    expect(JSON.stringify(record.error)).toContain('"[omitted]"');
    expect(JSON.stringify(record.error).length).toBeLessThan(200);
  });

  it('should cut an error with more values than its bound', async () => {
    server.route('GET', ARTICLE_PATH, (request) => ({ status: 200, body: failedRecord(request, { error: { list: Array.from({ length: 5_000 }, (_, i) => i) } }) }));
    const record = await makeClient().getArticle(ARTICLE_ID);
    const list = (record.error as { list: unknown[] }).list;
    expect(list.length).toBeLessThan(5_000);
    expect(list.at(-1)).toBe('[omitted]');
  });
});
