// Client errors over real HTTP: every status with every body form, and unreadable or misshapen answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArticleClient } from '../../src/api/client.js';
import { ArticleServiceError } from '../../src/api/errors.js';
import { ArticleLoaderError } from '../../src/errors.js';
import { ARTICLE_PATH, CREATE_PATH, LINKS_PATH, clientFor, processingRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, startScriptedServer } from './scripted-server.js';

let server: ScriptedServer;
let client: ArticleClient;

beforeEach(async () => {
  server = await startScriptedServer();
  client = clientFor(server, { retry: { maxAttempts: 2 } });
});

afterEach(async () => {
  await client.close();
  await server.stop();
});

const STATUS_EXPECTATIONS = [
  { status: 400, code: 'invalid_request', retryable: false, hint: 'Fix the request' },
  { status: 401, code: 'unauthorized', retryable: false, hint: 'Check that ARTICLES_API_KEY' },
  { status: 402, code: 'insufficient_credits', retryable: false, hint: 'Top up credits' },
  { status: 403, code: 'plan_required', retryable: false, hint: "account's plan does not allow it" },
  { status: 404, code: 'not_found', retryable: false, hint: 'was not found on the article service' },
  { status: 429, code: 'rate_limited', retryable: true, hint: 'rate limiting requests' },
  { status: 500, code: 'server_error', retryable: true, hint: 'try again later' },
  { status: 502, code: 'server_error', retryable: true, hint: 'try again later' },
  { status: 503, code: 'server_error', retryable: true, hint: 'try again later' },
] as const;

const BODY_FORMS = [
  { form: 'a JSON body', answer: { body: { error: 'service_code', message: 'The service explains why' } }, quoted: 'service_code: The service explains why' },
  { form: 'a plain-text body', answer: { body: 'The service explains why', headers: { 'content-type': 'text/plain' } }, quoted: 'The service explains why' },
  { form: 'an empty body', answer: { body: '' }, quoted: undefined },
] as const;

const CASES = STATUS_EXPECTATIONS.flatMap((expected) => BODY_FORMS.map((body) => ({ ...expected, ...body })));

describe('status errors', () => {
  it.each(CASES)('should turn $status with $form into a $code error', async ({ status, code, retryable, hint, answer, quoted }) => {
    server.route('GET', ARTICLE_PATH, { status, ...answer });

    const error = await rejection(client.getArticle(ARTICLE_PATH.split('/').pop() as string));

    expect(error).toBeInstanceOf(ArticleServiceError);
    expect(error).toBeInstanceOf(ArticleLoaderError);
    expect(error).toMatchObject({ code, status, retryable });
    expect(error.message).toContain(hint);
    if (quoted === undefined) expect(error.message).not.toContain('the service says');
    else expect(error.message).toContain(`the service says "${quoted}"`);
    // Retryable statuses used both attempts; the others were never repeated.
    expect(server.requests).toHaveLength(retryable ? 2 : 1);
  });

  it('should list the fields the service names in a 400', async () => {
    server.route('POST', CREATE_PATH, {
      status: 400,
      body: {
        error: 'invalid_request',
        message: 'Invalid parameters',
        fields: [
          { path: 'numberOfItems', message: 'must be 1 or more' },
          { path: ['polishSettings', 'humanize'], message: 'must be a boolean' },
        ],
      },
    });

    const error = await rejection(client.createArticle({ targetKeyword: 'best hiking boots' }));

    expect(error).toMatchObject({
      code: 'invalid_request',
      fields: [
        { path: 'numberOfItems', message: 'must be 1 or more' },
        { path: 'polishSettings.humanize', message: 'must be a boolean' },
      ],
    });
    expect(error.message).toContain('the article request for "best hiking boots"');
    expect(error.message).toContain('numberOfItems: must be 1 or more; polishSettings.humanize: must be a boolean');
  });

  it('should say that internal links need the Professional plan on a 403 of the links route', async () => {
    server.route('POST', LINKS_PATH, { status: 403, body: { error: 'plan_required', message: 'Upgrade required' } });

    const error = await rejection(client.createInternalLinks({ content: '<p>Hiking boots</p>', domainId: 'dom-1' }));

    expect(error).toMatchObject({ code: 'plan_required', status: 403 });
    expect(error.message).toContain('internal links need the Professional plan');
  });

  it('should say to top up credits on a 402 of the links route', async () => {
    server.route('POST', LINKS_PATH, { status: 402, body: { error: 'insufficient_credits', message: 'No credits left' } });

    const error = await rejection(client.createInternalLinks({ content: '<p>Hiking boots</p>', domainId: 'dom-1' }));

    expect(error).toMatchObject({ code: 'insufficient_credits', status: 402 });
    expect(error.message).toContain('Top up credits');
  });

  it('should tell to check baseUrl on a 404 of a route that always exists', async () => {
    server.route('POST', CREATE_PATH, { status: 404, body: '' });

    const error = await rejection(client.createArticle({ targetKeyword: 'best hiking boots' }));

    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect(error.message).toContain('Check baseUrl');
  });

  it('should explain an idempotency conflict (409) as an invalid request', async () => {
    server.route('POST', CREATE_PATH, { status: 409, body: { error: 'idempotency_conflict', message: 'Key reused with another body' } });

    const error = await rejection(client.createArticle({ targetKeyword: 'best hiking boots' }, { idempotencyKey: 'key-1' }));

    expect(error).toMatchObject({ code: 'invalid_request', status: 409, retryable: false });
    expect(error.message).toContain('idempotency_conflict: Key reused with another body');
    expect(server.requests).toHaveLength(1);
  });

  it('should not quote an HTML error page', async () => {
    server.route('GET', ARTICLE_PATH, { status: 502, body: '<html><body><h1>502 Bad Gateway</h1></body></html>', headers: { 'content-type': 'text/html' } });

    const error = await rejection(client.getArticle(ARTICLE_PATH.split('/').pop() as string));

    expect(error).toMatchObject({ code: 'server_error', status: 502 });
    expect(error.message).not.toContain('<h1>');
  });

  it('should say how many attempts were made when it gives up', async () => {
    server.route('GET', ARTICLE_PATH, { status: 503, body: '' });

    const error = await rejection(client.getArticle(ARTICLE_PATH.split('/').pop() as string));

    expect(error).toMatchObject({ code: 'server_error', attempts: 2 });
    expect(error.message).toContain('gave up after 2 attempts');
  });
});

describe('unreadable and misshapen answers', () => {
  const articleId = ARTICLE_PATH.split('/').pop() as string;

  it('should retry a truncated JSON answer and then fail with a retryable invalid_response', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: '{"config":{"targetKeyword":"boo', headers: { 'content-type': 'application/json' } });

    const error = await rejection(client.getArticle(articleId));

    expect(error).toMatchObject({ code: 'invalid_response', status: 200, retryable: true });
    expect(error.message).toContain('not valid JSON');
    expect(server.requests).toHaveLength(2);
  });

  it('should fail with invalid_response on an empty 200 answer', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: '' });

    const error = await rejection(client.getArticle(articleId));

    expect(error).toMatchObject({ code: 'invalid_response', retryable: true });
    expect(error.message).toContain('is empty');
  });

  it('should retry an answer cut off by a closed connection', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, partialBody: '{"config":' }, { status: 200, body: processingRecord() });

    const status = await client.getArticle(articleId);

    expect(status.status).toBe('processing');
    expect(server.requests).toHaveLength(2);
  });

  it('should name the mismatching field and not retry a schema mismatch', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: { ...processingRecord(), output: { html: '<p>early</p>', polishedHtml: null } } });

    const error = await rejection(client.getArticle(articleId));

    expect(error).toMatchObject({ code: 'invalid_response', retryable: false, fields: [{ path: 'output' }] });
    expect(error.message).toContain('output: must be absent unless status is "finished"');
    expect(server.requests).toHaveLength(1);
  });

  it('should name a wrong status value', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: { ...processingRecord(), status: 'done' } });

    const error = await rejection(client.getArticle(articleId));

    expect(error).toMatchObject({ code: 'invalid_response', fields: [{ path: 'status' }] });
  });

  it('should reject a links JSON answer of the wrong shape', async () => {
    server.route('POST', LINKS_PATH, { status: 200, body: { links: [{ phrase: 'boots', url: '/boots', title: null, start: -1, end: 5 }], wordsAnalysed: 3 } });

    const error = await rejection(client.createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1', format: 'json' }));

    expect(error).toMatchObject({ code: 'invalid_response', fields: [{ path: 'links.0.start' }] });
  });

  it('should reject an empty html answer of the links route', async () => {
    server.route('POST', LINKS_PATH, { status: 200, body: '', headers: { 'content-type': 'text/html' } });

    const error = await rejection(client.createInternalLinks({ content: '<p>Hiking boots</p>', domainId: 'dom-1' }));

    expect(error).toMatchObject({ code: 'invalid_response' });
  });
});
