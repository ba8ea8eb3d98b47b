// What the client sends and returns over real HTTP: headers, validated bodies, paths, answer formats, options.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArticleClient, type ArticleClientOptions, createArticleClient } from '../../src/api/client.js';
import { API_KEY, ARTICLE_ID, ARTICLE_PATH, CREATE_PATH, LINKS_PATH, clientFor, finishedRecord, rejection } from './client-fixtures.js';
import { type ScriptedServer, startScriptedServer } from './scripted-server.js';

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

describe('createArticle', () => {
  it('should send the bearer key, JSON content type and a User-Agent naming the package', async () => {
    server.route('POST', CREATE_PATH, { status: 200, body: { articleId: ARTICLE_ID } });
    const client = makeClient();

    await client.createArticle({ targetKeyword: 'best hiking boots' });

    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(headers?.['content-type']).toBe('application/json');
    expect(headers?.['user-agent']).toMatch(/^astro-article-loader\/\d+\.\d+\.\d+/);
    expect(headers?.['idempotency-key']).toBeUndefined();
  });

  it('should send the parsed request with every default applied and resolve to the articleId', async () => {
    server.route('POST', CREATE_PATH, { status: 201, body: { articleId: ARTICLE_ID, extra: 'kept by the service' } });
    const client = makeClient();

    const articleId = await client.createArticle({ targetKeyword: 'best hiking boots', polishSettings: { humanize: true } });

    expect(articleId).toBe(ARTICLE_ID);
    expect(JSON.parse(server.requests[0]?.body ?? '')).toMatchObject({
      targetKeyword: 'best hiking boots',
      articleType: 'blog_post',
      gptVersion: 'model-6-luna',
      imageModel: 'model-image-2-fast',
      realTimeDateRange: '',
      polishSettings: { humanize: true, 'split-up-long-paragraphs': true },
    });
  });

  it('should reject an invalid request locally, naming the field, without sending it', async () => {
    const client = makeClient();

    const error = await rejection(client.createArticle({ targetKeyword: 'best hiking boots', polishCustomInstructions: 'x'.repeat(1025) }));

    expect(error).toMatchObject({ code: 'invalid_request', status: undefined, fields: [{ path: 'polishCustomInstructions' }] });
    expect(error.message).toContain('polishCustomInstructions: must be at most 1024 characters');
    expect(server.requests).toHaveLength(0);
  });

  it('should reject a parameter of another article type locally, naming it', async () => {
    const client = makeClient();

    const error = await rejection(
      client.createArticle({ targetKeyword: 'best hiking boots', articleType: 'listicle', numRetailProducts: 5 } as never),
    );

    expect(error).toMatchObject({ code: 'invalid_request', fields: [{ path: 'numRetailProducts' }] });
    expect(error.message).toContain('"numRetailProducts" applies only to articleType "retail_product_roundup"');
    expect(server.requests).toHaveLength(0);
  });

  it('should keep the path prefix of baseUrl', async () => {
    server.route('POST', `/service/v1${CREATE_PATH}`, { status: 200, body: { articleId: ARTICLE_ID } });
    const client = makeClient({ baseUrl: `${server.url}/service/v1/` });

    expect(await client.createArticle({ targetKeyword: 'best hiking boots' })).toBe(ARTICLE_ID);
    expect(server.requests[0]?.path).toBe('/service/v1/api/articles/');
  });
});

describe('getArticle', () => {
  it('should resolve to the validated status record', async () => {
    server.route('GET', ARTICLE_PATH, { status: 200, body: finishedRecord() });
    const client = makeClient();

    const status = await client.getArticle(ARTICLE_ID);

    expect(status).toMatchObject({ status: 'finished', output: { polishedHtml: null }, error: null });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('should reject an id that is not a UUID without sending anything', async () => {
    const client = makeClient();

    const error = await rejection(client.getArticle('../internal-links/'));

    expect(error).toMatchObject({ code: 'invalid_request', fields: [{ path: 'articleId' }] });
    expect(server.requests).toHaveLength(0);
  });
});

describe('createInternalLinks', () => {
  it('should send format html by default and resolve to the text/html body', async () => {
    server.route('POST', LINKS_PATH, { status: 200, body: '<p><a href="/boots">Hiking boots</a></p>', headers: { 'content-type': 'text/html; charset=utf-8' } });
    const client = makeClient();

    const linked = await client.createInternalLinks({ content: '<p>Hiking boots</p>', domainId: 'dom-1' });

    expect(linked).toBe('<p><a href="/boots">Hiking boots</a></p>');
    expect(JSON.parse(server.requests[0]?.body ?? '')).toEqual({ content: '<p>Hiking boots</p>', domainId: 'dom-1', format: 'html' });
  });

  it('should resolve to the text/markdown body for format markdown', async () => {
    server.route('POST', LINKS_PATH, { status: 200, body: '[Hiking boots](/boots)', headers: { 'content-type': 'text/markdown' } });
    const client = makeClient();

    expect(await client.createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1', format: 'markdown' })).toBe('[Hiking boots](/boots)');
  });

  it('should resolve to validated link data for format json', async () => {
    const links = { links: [{ phrase: 'Hiking boots', url: 'https://example.com/boots', title: null, start: 0, end: 12 }], wordsAnalysed: 2 };
    server.route('POST', LINKS_PATH, { status: 200, body: links });
    const client = makeClient();

    expect(await client.createInternalLinks({ content: 'Hiking boots', domainId: 'dom-1', format: 'json' })).toEqual(links);
  });

  it('should accept linked html wrapped in a JSON object', async () => {
    server.route('POST', LINKS_PATH, { status: 200, body: { content: '<p><a href="/boots">Hiking boots</a></p>' } });
    const client = makeClient();

    expect(await client.createInternalLinks({ content: '<p>Hiking boots</p>', domainId: 'dom-1' })).toBe('<p><a href="/boots">Hiking boots</a></p>');
  });

  it('should reject an invalid link request locally', async () => {
    const client = makeClient();

    const error = await rejection(client.createInternalLinks({ content: '', domainId: 'dom-1', format: 'pdf' as never }));

    expect(error).toMatchObject({ code: 'invalid_request' });
    expect((error.fields as { path: string }[]).map((field) => field.path).sort()).toEqual(['content', 'format']);
    expect(server.requests).toHaveLength(0);
  });
});

describe('options', () => {
  it.each([
    { name: 'an empty apiKey', options: { apiKey: '' }, says: 'ARTICLES_API_KEY' },
    { name: 'an apiKey with a trailing newline', options: { apiKey: `${API_KEY}\n` }, says: 'stray newline' },
    { name: 'a baseUrl that is not a URL', options: { baseUrl: 'api.example.com' }, says: 'absolute http(s) URL' },
    { name: 'a baseUrl of another scheme', options: { baseUrl: 'ftp://example.com' }, says: 'http or https' },
    { name: 'a baseUrl with credentials', options: { baseUrl: 'https://user:pw@example.com' }, says: 'user name or password' },
    { name: 'concurrency 0', options: { concurrency: 0 }, says: 'concurrency' },
    { name: 'a negative timeoutMs', options: { timeoutMs: -1 }, says: 'timeoutMs' },
    { name: 'retry.maxAttempts 0', options: { retry: { maxAttempts: 0 } }, says: 'retry.maxAttempts' },
  ])('should refuse $name with invalid_client_options', ({ options, says }) => {
    let thrown: unknown;
    try {
      createArticleClient({ baseUrl: 'https://api.example.com', apiKey: API_KEY, ...options });
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toMatchObject({ code: 'invalid_client_options' });
    expect((thrown as Error).message).toContain(says);
    expect((thrown as Error).message).not.toContain(API_KEY);
  });
});
