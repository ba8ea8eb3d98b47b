import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const KEY = 'server-test-key-1234';
const OTHER_KEY = 'server-test-key-5678';
let emulator: RunningEmulator;

function call(path: string, init: { method?: string; body?: string; key?: string | null; type?: string | null; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? KEY}`;
  if (init.body !== undefined && init.type !== null) headers['content-type'] = init.type ?? 'application/json';
  return fetch(`${emulator.url}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body ?? null });
}

async function createArticle(body: object, key = KEY): Promise<string> {
  const response = await call('/api/articles/', { body: JSON.stringify(body), key });
  expect(response.status).toBe(200);
  return ((await response.json()) as { articleId: string }).articleId;
}

async function finished(articleId: string, key = KEY): Promise<Record<string, unknown>> {
  for (;;) {
    const record = (await (await call(`/api/articles/${articleId}`, { key })).json()) as Record<string, unknown>;
    if (record.status === 'finished' || record.status === 'failed') return record;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  emulator = await startEmulator({
    timing: 'instant',
    accounts: [
      { name: 'main', apiKey: KEY, plan: 'professional' },
      { name: 'other', apiKey: OTHER_KEY, plan: 'basic', words: 100 },
    ],
    maxBodyBytes: 4096,
    rateLimit: { requestsPerSecond: 1000, burst: 1000 },
    imageUrlTtlMs: 60_000,
  });
});
afterAll(() => emulator.stop());
afterEach(() => emulator.reset());

describe('emulator HTTP surface', () => {
  it('should answer 404 with a JSON error body for an unknown route', async () => {
    const response = await call('/api/nothing');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found', message: expect.any(String) });
  });

  it('should answer 405 with Allow for a wrong method', async () => {
    const response = await call('/api/articles/', { method: 'GET' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toMatchObject({ error: 'method_not_allowed' });
  });

  it('should answer 401 without an Authorization header', async () => {
    const response = await call('/api/articles/x', { key: null });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('should answer 401 for a wrong key, on every route', async () => {
    for (const [path, body] of [['/api/articles/', '{}'], ['/api/articles/abc', undefined], ['/api/internal-links/', '{}'], ['/_emulator/ledger', undefined]] as const) {
      const response = await call(path, { key: 'server-test-key-0000', ...(body === undefined ? {} : { body }) });
      expect(response.status, path).toBe(401);
    }
  });

  it('should answer 400 for a body sent without a JSON content type', async () => {
    const response = await call('/api/articles/', { body: '{"targetKeyword":"x"}', type: 'text/plain' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('Content-Type') });
  });

  it('should answer 400 for malformed JSON', async () => {
    const response = await call('/api/articles/', { body: '{"targetKeyword":' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request', message: expect.stringContaining('not valid JSON') });
  });

  it('should answer 400 for a body that is not an object', async () => {
    const response = await call('/api/articles/', { body: '[1]' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ fields: [{ path: '', message: 'must be a JSON object' }] });
  });

  it('should name each offending field, one entry per unrecognized key', async () => {
    const response = await call('/api/articles/', { body: JSON.stringify({ targetKeyword: 'x', numRetailProducts: 3, colour: 'red', polishSettings: { humanize: 'yes' } }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fields: { path: string; message: string }[] };
    expect(body.fields.map((f) => f.path).sort()).toEqual(['colour', 'numRetailProducts', 'polishSettings.humanize']);
    expect(body.fields.find((f) => f.path === 'numRetailProducts')?.message).toContain('retail_product_roundup');
    expect(body.fields.find((f) => f.path === 'colour')?.message).not.toContain('numRetailProducts');
  });

  it('should refuse an oversized body with 413 and close the connection', async () => {
    const response = await call('/api/articles/', { body: JSON.stringify({ targetKeyword: 'x'.repeat(10_000) }) });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
    expect(emulator.ledger.creations).toHaveLength(0);
  });

  it('should refuse an oversized chunked body with 413', async () => {
    const url = new URL(`${emulator.url}/api/articles/`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 8; i++) req.write('{"a":"' + 'y'.repeat(1000) + '"}');
      req.end();
    });
    expect(status).toBe(413);
  });

  it('should answer 402 when the word balance cannot cover an article', async () => {
    const response = await call('/api/articles/', { key: OTHER_KEY, body: JSON.stringify({ targetKeyword: 'tea' }) });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ error: 'insufficient_credits', message: expect.stringContaining('word balance') });
  });

  it('should answer 403 for internal links on a plan without them', async () => {
    const response = await call('/api/internal-links/', { key: OTHER_KEY, body: JSON.stringify({ content: 'x', format: 'html', domainId: 'd' }) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: 'plan_required' });
  });

  it('should answer 404 for an unknown article id and for another account\'s article', async () => {
    expect((await call('/api/articles/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const articleId = await createArticle({ targetKeyword: 'tea' });
    expect((await call(`/api/articles/${articleId}`, { key: OTHER_KEY })).status).toBe(404);
  });

  it('should answer 200 with the articleId at once, before the article is written', async () => {
    emulator.pause();
    const articleId = await createArticle({ targetKeyword: 'tea' });
    expect(articleId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const record = (await (await call(`/api/articles/${articleId}`)).json()) as Record<string, unknown>;
    expect(record).toMatchObject({ status: 'queued', progress: 0, error: null, config: { targetKeyword: 'tea', articleType: 'blog_post' } });
    expect(record).not.toHaveProperty('output');
    emulator.resume();
  });

  it('should rate limit per key with 429 and Retry-After in seconds', async () => {
    const limited = await startEmulator({ timing: 'instant', apiKey: KEY, rateLimit: { requestsPerSecond: 0.5, burst: 2 } });
    try {
      const statuses: number[] = [];
      let retryAfter: string | null = null;
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${limited.url}/api/articles/abc`, { headers: { authorization: `Bearer ${KEY}` } });
        statuses.push(response.status);
        if (response.status === 429) retryAfter = response.headers.get('retry-after');
      }
      expect(statuses).toEqual([404, 404, 429]);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.stop();
    }
  });

  it('should serve the PNG images an article references', async () => {
    const record = await finished(await createArticle({ targetKeyword: 'tea', multimediaOption: 'images', maxImages: 1, imageSize: '1536x1024' }));
    const src = /<img[^>]+src="([^"]+)"/.exec((record.output as { html: string }).html)?.[1] as string;
    expect(src.startsWith(`${emulator.url}/_emulator/images/`)).toBe(true);
    const response = await fetch(src);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1536, 1024]);
  });

  it('should refuse image URLs that are expired, tampered with or unsigned with 403', async () => {
    const record = await finished(await createArticle({ targetKeyword: 'tea', multimediaOption: 'images', maxImages: 1 }));
    const src = new URL(/<img[^>]+src="([^"]+)"/.exec((record.output as { html: string }).html)?.[1] as string);
    const expired = new URL(src);
    expired.searchParams.set('expires', String(Date.now() - 1000));
    expect((await fetch(expired)).status).toBe(403);
    const unsigned = new URL(src.pathname, src);
    expect((await fetch(unsigned)).status).toBe(403);
    const expiring = await startEmulator({ timing: 'instant', apiKey: KEY, imageUrlTtlMs: 0 });
    try {
      const response = await fetch(`${expiring.url}/api/articles/`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ targetKeyword: 'tea', multimediaOption: 'images', maxImages: 1 }) });
      const { articleId } = (await response.json()) as { articleId: string };
      await expiring.settle();
      const html = expiring.article(articleId)?.output?.html ?? '';
      const image = await fetch(/<img[^>]+src="([^"]+)"/.exec(html)?.[1] as string);
      expect(image.status).toBe(403);
      expect(await image.json()).toMatchObject({ message: expect.stringContaining('expired') });
    } finally {
      await expiring.stop();
    }
  });

  it('should answer the ledger route with the calling account\'s creations only', async () => {
    await createArticle({ targetKeyword: 'tea' });
    const ledger = (await (await call('/_emulator/ledger')).json()) as { account: string; creations: unknown[]; totals: { creations: number } };
    expect(ledger.account).toBe('main');
    expect(ledger.creations).toHaveLength(1);
    const other = (await (await call('/_emulator/ledger', { key: OTHER_KEY })).json()) as { creations: unknown[] };
    expect(other.creations).toHaveLength(0);
  });

  it('should log every request with method, path and status, and never a key', async () => {
    await call('/api/articles/abc');
    await call('/api/articles/abc', { key: 'server-test-wrong-key' });
    expect(emulator.requests.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/articles/abc', status: 404 },
      { method: 'GET', path: '/api/articles/abc', status: 401 },
    ]);
    expect(JSON.stringify(emulator.requests)).not.toMatch(/server-test/);
  });

  it('should answer the health route without a key', async () => {
    expect(await (await call('/_emulator/health', { key: null })).json()).toEqual({ status: 'ok' });
  });
});

describe('emulator state file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emulator-state-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('should keep articles, ledger and idempotency keys across restarts and resume unfinished articles', async () => {
    const stateFile = join(dir, 'nested', 'state.json');
    const first = await startEmulator({ timing: 'instant', apiKey: KEY, stateFile });
    first.pause();
    const response = await fetch(`${first.url}/api/articles/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'resume-1' },
      body: JSON.stringify({ targetKeyword: 'tea' }),
    });
    const { articleId } = (await response.json()) as { articleId: string };
    await first.stop();
    const saved = await readFile(stateFile, 'utf8');
    expect(JSON.parse(saved)).toMatchObject({ version: 1, articles: [{ id: articleId, status: 'queued' }] });
    expect(saved).not.toContain(KEY);

    const second = await startEmulator({ timing: 'instant', apiKey: KEY, stateFile });
    try {
      await second.settle();
      expect(second.article(articleId)).toMatchObject({ status: 'finished' });
      expect(second.ledger.creations.map((c) => c.articleId)).toEqual([articleId]);
      const again = await fetch(`${second.url}/api/articles/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'resume-1' },
        body: JSON.stringify({ targetKeyword: 'tea' }),
      });
      expect(await again.json()).toEqual({ articleId });
      expect(second.ledger.creations).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  it('should refuse a corrupt state file with a message naming it', async () => {
    const stateFile = join(dir, 'corrupt.json');
    await import('node:fs/promises').then((fs) => fs.writeFile(stateFile, '{not json'));
    await expect(startEmulator({ apiKey: KEY, stateFile })).rejects.toMatchObject({ code: 'emulator_state_unreadable', message: expect.stringContaining(stateFile) });
  });
});

describe('emulator worker pool and timing', () => {
  it('should keep articles queued beyond the worker count', async () => {
    const pool = await startEmulator({ apiKey: KEY, workers: 1, timing: { writingMs: 3_600_000 } });
    try {
      const create = async (targetKeyword: string) => {
        const response = await fetch(`${pool.url}/api/articles/`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ targetKeyword }) });
        return ((await response.json()) as { articleId: string }).articleId;
      };
      const first = await create('first');
      const second = await create('second');
      while (pool.article(first)?.status !== 'processing') await new Promise((resolve) => setTimeout(resolve, 5));
      expect(pool.article(second)?.status).toBe('queued');
      pool.setTiming('instant');
      await pool.settle();
      expect([pool.article(first)?.status, pool.article(second)?.status]).toEqual(['finished', 'finished']);
    } finally {
      await pool.stop();
    }
  });

  it('should ask a writingMs function for each article\'s writing time', async () => {
    const calls: { keyword: string; articleId: string }[] = [];
    const timed = await startEmulator({
      apiKey: KEY,
      timing: { writingMs: (request, context) => (calls.push({ keyword: request.targetKeyword, articleId: context.articleId }), 0) },
    });
    try {
      const response = await fetch(`${timed.url}/api/articles/`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ targetKeyword: 'timed' }) });
      const { articleId } = (await response.json()) as { articleId: string };
      expect(calls).toEqual([{ keyword: 'timed', articleId }]);
    } finally {
      await timed.stop();
    }
  });
});
