// The contract suite: the real HTTP client of src/api against the emulator, over real HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createArticleClient, type ArticleClient, type ArticleClientOptions } from '../../src/api/client.js';
import type { ArticleStatus } from '../../src/contract/response-schema.js';
import { hashArticleRequest, MAX_LINKS, startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const KEY = 'contract-key-0001';
const BASIC_KEY = 'contract-key-0002';
const BROKE_KEY = 'contract-key-0003';
const pages = [
  { url: 'https://site.example/sourdough', title: 'Sourdough guide', keywords: ['sourdough'] },
  { url: 'https://site.example/starter', title: 'Starter', keywords: ['starter'] },
];

let emulator: RunningEmulator;
const clients: ArticleClient[] = [];

function client(options: Partial<ArticleClientOptions> = {}): ArticleClient {
  const created = createArticleClient({ baseUrl: emulator.url, apiKey: KEY, retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...options });
  clients.push(created);
  return created;
}

async function until(articleId: string, api: ArticleClient, done: (status: ArticleStatus) => boolean): Promise<ArticleStatus> {
  for (;;) {
    const status = await api.getArticle(articleId);
    if (done(status)) return status;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

beforeAll(async () => {
  emulator = await startEmulator({
    timing: 'instant',
    seed: 7,
    accounts: [
      { name: 'pro', apiKey: KEY, plan: 'professional', domains: [{ id: 'my-site', pages }] },
      { name: 'basic', apiKey: BASIC_KEY, plan: 'basic' },
      { name: 'broke', apiKey: BROKE_KEY, plan: 'professional', words: 5, credits: 1, domains: [{ id: 'my-site', pages }] },
    ],
    rateLimit: false,
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  emulator.setFaults(undefined);
  emulator.setTiming('instant');
  emulator.resume();
  emulator.reset();
});
afterAll(() => emulator.stop());

describe('contract: articles', () => {
  it('should create an article and return its UUID', async () => {
    const articleId = await client().createArticle({ targetKeyword: 'sourdough starter' });
    expect(articleId).toMatch(/^[0-9a-f-]{36}$/);
    expect(emulator.ledger.creations.map((c) => c.articleId)).toEqual([articleId]);
  });

  it('should report queued while no worker has taken the article', async () => {
    emulator.pause();
    const api = client();
    const status = await api.getArticle(await api.createArticle({ targetKeyword: 'rye' }));
    expect(status).toMatchObject({ status: 'queued', progress: 0, error: null, config: { targetKeyword: 'rye' } });
    expect(status.output).toBeUndefined();
  });

  it('should move through processing with section detail and rising progress, then finish with output', async () => {
    emulator.setTiming({ writingMs: 3_600_000 });
    const api = client();
    const articleId = await api.createArticle({ targetKeyword: 'sourdough', articleLength: 'custom', numberOfSections: 4 });
    const researching = await until(articleId, api, (s) => s.status === 'processing');
    expect(researching.statusDetail).toBe('Researching "sourdough"');
    const writing = await until(articleId, api, (s) => {
      emulator.advance();
      return s.statusDetail.startsWith('Writing section');
    });
    expect(writing.status).toBe('processing');
    expect(writing.statusDetail).toMatch(/^Writing section 1 of 4: /);
    expect(writing.progress).toBeGreaterThan(0);
    expect(writing.progress).toBeLessThan(1);
    expect(writing.output).toBeUndefined();
    emulator.setTiming('instant');
    const done = await until(articleId, api, (s) => s.status === 'finished');
    expect(done.progress).toBe(1);
    expect(done.updatedAt).toBeGreaterThanOrEqual(writing.updatedAt);
    expect(done.output?.html).toMatch(/<h1\b/);
    expect(done.output?.polishedHtml).toBeNull();
    expect(done.config).toMatchObject({ targetKeyword: 'sourdough', articleLength: 'custom', numberOfSections: 4, articleType: 'blog_post' });
  });

  it('should return polishedHtml when autoPolish is true', async () => {
    const api = client();
    const done = await until(await api.createArticle({ targetKeyword: 'sourdough', autoPolish: true }), api, (s) => s.status === 'finished');
    expect(done.output?.polishedHtml).toEqual(expect.any(String));
    expect(done.output?.polishedHtml).not.toBe(done.output?.html);
  });

  it('should report a failed article through the status record', async () => {
    emulator.setFaults({ failedArticles: { share: 1, code: 'model_overloaded', message: 'The model was overloaded.' } });
    const api = client();
    const failed = await until(await api.createArticle({ targetKeyword: 'sourdough' }), api, (s) => s.status === 'failed');
    expect(failed.error).toEqual({ code: 'model_overloaded', message: 'The model was overloaded.' });
    expect(failed.output).toBeUndefined();
    expect(failed.statusDetail).toMatch(/^Failed while /);
    expect(emulator.ledger.totals).toMatchObject({ creations: 1, failed: 1, billedWords: 0 });
  });

  it('should throw not_found for an unknown article id', async () => {
    await expect(client().getArticle('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('should throw unauthorized for a wrong key', async () => {
    await expect(client({ apiKey: 'contract-key-wrong' }).getArticle('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('should throw invalid_request with the field for a request the service rejects', async () => {
    const error = await client().createArticle({ targetKeyword: 'sourdough', integrationId: 'not-connected' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_request', status: 400, fields: [{ path: 'integrationId', message: expect.stringContaining('not-connected') }] });
    expect(emulator.ledger.creations).toHaveLength(0);
  });

  it('should throw insufficient_credits when the word balance cannot pay for the article', async () => {
    await expect(client({ apiKey: BROKE_KEY }).createArticle({ targetKeyword: 'sourdough' })).rejects.toMatchObject({ code: 'insufficient_credits', status: 402 });
  });

  it('should throw rate_limited with the Retry-After when retries run out', async () => {
    emulator.setFaults({ rateLimitBursts: { share: 1, retryAfterSeconds: 0 } });
    await expect(client({ retry: { maxAttempts: 2, baseDelayMs: 1 } }).getArticle('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfterMs: 0,
    });
  });

  it('should throw server_error with the status when every attempt gets a 500', async () => {
    emulator.setFaults({ serverErrors: 1 });
    await expect(client({ retry: { maxAttempts: 2, baseDelayMs: 1 } }).getArticle('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'server_error', status: 500 });
  });
});

describe('contract: ledger', () => {
  it('should record each creation with its request hash, keyword and billed words', async () => {
    const api = client();
    const request = { targetKeyword: 'sourdough', multimediaOption: 'images', maxImages: 2, imageModel: 'model-image-2-medium' } as const;
    const articleId = await api.createArticle(request);
    await emulator.settle();
    const [creation] = emulator.ledger.creations;
    expect(creation).toMatchObject({ articleId, requestHash: hashArticleRequest(request), targetKeyword: 'sourdough', images: 2, imageWords: 400, outcome: 'finished' });
    expect(creation?.words).toBeGreaterThan(500);
    expect(emulator.ledger.totals.billedWords).toBe((creation?.words ?? 0) + 400);
  });

  it('should bill 50 words per image for fast and for the models the spec does not price', async () => {
    const api = client();
    await api.createArticle({ targetKeyword: 'a', multimediaOption: 'images', maxImages: 1, imageModel: 'model-image-2-fast' });
    await api.createArticle({ targetKeyword: 'b', multimediaOption: 'images', maxImages: 1, imageModel: 'compact-image-2' });
    expect(emulator.ledger.creations.map((c) => c.imageWords)).toEqual([50, 50]);
  });

  it('should list a request created twice as a duplicate', async () => {
    const api = client();
    await api.createArticle({ targetKeyword: 'sourdough' });
    await api.createArticle({ targetKeyword: 'rye' });
    expect(emulator.ledger.duplicates()).toEqual([]);
    await api.createArticle({ targetKeyword: 'sourdough', articleType: 'blog_post' });
    expect(emulator.ledger.duplicates()).toEqual([{ requestHash: hashArticleRequest({ targetKeyword: 'sourdough' }), targetKeyword: 'sourdough', articleIds: expect.any(Array) }]);
    expect(emulator.ledger.creationsFor(hashArticleRequest({ targetKeyword: 'sourdough' }))).toHaveLength(2);
  });

  it('should take billed words off the account balance', async () => {
    const before = emulator.balances().find((b) => b.account === 'pro')?.words;
    expect(before).toBe(Number.POSITIVE_INFINITY);
    const limited = await startEmulator({ timing: 'instant', accounts: [{ apiKey: KEY, words: 100_000 }] });
    try {
      await createArticleClient({ baseUrl: limited.url, apiKey: KEY }).createArticle({ targetKeyword: 'tea' });
      expect(limited.balances()[0]?.words).toBe(100_000 - limited.ledger.totals.billedWords);
    } finally {
      await limited.stop();
    }
  });
});

describe('contract: idempotency', () => {
  it('should return the same article for the same Idempotency-Key and body, creating it once', async () => {
    const api = client({ idempotentCreates: true });
    const first = await api.createArticle({ targetKeyword: 'sourdough' }, { idempotencyKey: 'build-1:sourdough' });
    const second = await api.createArticle({ targetKeyword: 'sourdough' }, { idempotencyKey: 'build-1:sourdough' });
    expect(second).toBe(first);
    expect(emulator.ledger.creations).toHaveLength(1);
  });

  it('should refuse the same Idempotency-Key with a different body with 409', async () => {
    const api = client({ idempotentCreates: true });
    await api.createArticle({ targetKeyword: 'sourdough' }, { idempotencyKey: 'key-1' });
    await expect(api.createArticle({ targetKeyword: 'rye' }, { idempotencyKey: 'key-1' })).rejects.toMatchObject({ status: 409 });
    expect(emulator.ledger.creations).toHaveLength(1);
  });

  it('should keep Idempotency-Keys apart per API key', async () => {
    const broke = await startEmulator({ timing: 'instant', accounts: [{ apiKey: KEY }, { apiKey: BASIC_KEY }] });
    try {
      const a = await createArticleClient({ baseUrl: broke.url, apiKey: KEY }).createArticle({ targetKeyword: 'x' }, { idempotencyKey: 'same' });
      const b = await createArticleClient({ baseUrl: broke.url, apiKey: BASIC_KEY }).createArticle({ targetKeyword: 'x' }, { idempotencyKey: 'same' });
      expect(a).not.toBe(b);
    } finally {
      await broke.stop();
    }
  });
});

describe('contract: internal links', () => {
  const content = '<p>Feed your starter before baking sourdough.</p>';

  it('should answer format html with the content and anchor tags', async () => {
    const html = await client().createInternalLinks({ content, format: 'html', domainId: 'my-site' });
    expect(html).toBe('<p>Feed your <a href="https://site.example/starter" title="Starter">starter</a> before baking <a href="https://site.example/sourdough" title="Sourdough guide">sourdough</a>.</p>');
  });

  it('should answer format markdown with Markdown links', async () => {
    const markdown = await client().createInternalLinks({ content: 'Feed your starter.', format: 'markdown', domainId: 'my-site' });
    expect(markdown).toBe('Feed your [starter](https://site.example/starter).');
  });

  it('should answer format json with links and offsets', async () => {
    const json = await client().createInternalLinks({ content, format: 'json', domainId: 'my-site' });
    expect(json).toEqual({
      links: [
        { phrase: 'starter', url: 'https://site.example/starter', title: 'Starter', start: 13, end: 20 },
        { phrase: 'sourdough', url: 'https://site.example/sourdough', title: 'Sourdough guide', start: 35, end: 44 },
      ],
      wordsAnalysed: 6,
    });
  });

  it('should analyse only the first 2,500 words and insert at most 50 links', async () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ url: `https://site.example/p${i}`, keywords: [`topic${i}`] }));
    const limits = await startEmulator({ timing: 'instant', accounts: [{ apiKey: KEY, domains: [{ id: 'big', pages: many }] }] });
    try {
      const api = createArticleClient({ baseUrl: limits.url, apiKey: KEY });
      const words = Array.from({ length: 2600 }, (_, i) => (i < 60 ? `topic${i}` : `filler${i}`)).join(' ');
      const json = await api.createInternalLinks({ content: words, format: 'json', domainId: 'big' });
      expect(json.links).toHaveLength(MAX_LINKS);
      expect(json.wordsAnalysed).toBe(2500);
      const late = await api.createInternalLinks({ content: `${'word '.repeat(2500)}topic1`, format: 'markdown', domainId: 'big' });
      expect(late).toBe(`${'word '.repeat(2500)}topic1`);
    } finally {
      await limits.stop();
    }
  });

  it('should charge 1 credit per request whatever the format and links', async () => {
    const api = client();
    await api.createInternalLinks({ content, format: 'html', domainId: 'my-site' });
    await api.createInternalLinks({ content: 'nothing to link', format: 'json', domainId: 'my-site' });
    expect(emulator.ledger.linkCredits).toBe(2);
    expect(emulator.ledger.linkCharges.map((c) => c.links)).toEqual([2, 0]);
  });

  it('should throw insufficient_credits once the credits are spent', async () => {
    const api = client({ apiKey: BROKE_KEY });
    await api.createInternalLinks({ content, format: 'html', domainId: 'my-site' });
    await expect(api.createInternalLinks({ content, format: 'html', domainId: 'my-site' })).rejects.toMatchObject({ code: 'insufficient_credits', status: 402 });
    expect(emulator.ledger.linkCredits).toBe(1);
  });

  it('should throw plan_required for a plan without internal links', async () => {
    await expect(client({ apiKey: BASIC_KEY }).createInternalLinks({ content, format: 'html', domainId: 'my-site' })).rejects.toMatchObject({ code: 'plan_required', status: 403 });
  });

  it('should throw invalid_request naming domainId for an unknown domain', async () => {
    await expect(client().createInternalLinks({ content, format: 'html', domainId: 'nope' })).rejects.toMatchObject({ code: 'invalid_request', fields: [{ path: 'domainId' }] });
    expect(emulator.ledger.linkCredits).toBe(0);
  });

  it('should link article HTML to the internalLinkingDomainId pages', async () => {
    const api = client();
    const done = await until(await api.createArticle({ targetKeyword: 'sourdough', internalLinkingDomainId: 'my-site' }), api, (s) => s.status === 'finished');
    expect(done.output?.html).toContain('href="https://site.example/sourdough"');
  });
});

describe('contract: faults', () => {
  it('should inject 500s that the client retries through', async () => {
    const articleId = await client().createArticle({ targetKeyword: 'x' });
    emulator.setFaults({ serverErrors: 0.5 });
    const api = client({ retry: { maxAttempts: 10, baseDelayMs: 1 } });
    for (let i = 0; i < 10; i++) await api.getArticle(articleId);
    expect(emulator.requests.filter((r) => r.route === 'getArticle' && r.status === 500).length).toBeGreaterThan(0);
    expect(api.stats.retries).toBeGreaterThan(0);
  });

  it('should inject 429 bursts with Retry-After that the client waits out', async () => {
    const articleId = await client().createArticle({ targetKeyword: 'x' });
    emulator.setFaults({ routes: { getArticle: { rateLimitBursts: { share: 0.3, length: 2, retryAfterSeconds: 0 } } } });
    const api = client({ retry: { maxAttempts: 10, baseDelayMs: 1 } });
    for (let i = 0; i < 10; i++) await api.getArticle(articleId);
    const limited = emulator.requests.filter((r) => r.fault === 'rate_limited');
    expect(limited.length).toBeGreaterThanOrEqual(2);
  });

  it('should reset connections before processing, which the client retries for reads', async () => {
    const articleId = await client().createArticle({ targetKeyword: 'x' });
    emulator.setFaults({ routes: { getArticle: { resetsBeforeProcessing: 0.5 } } });
    const api = client({ retry: { maxAttempts: 10, baseDelayMs: 1 } });
    for (let i = 0; i < 6; i++) await api.getArticle(articleId);
    expect(emulator.requests.some((r) => r.fault === 'reset_before_processing' && r.status === null)).toBe(true);
  });

  it('should reset after creating an article, so a create without idempotency ends create_outcome_unknown', async () => {
    emulator.setFaults({ routes: { createArticle: { resetsAfterProcessing: 1 } } });
    await expect(client().createArticle({ targetKeyword: 'lost answer' })).rejects.toMatchObject({ code: 'create_outcome_unknown' });
    expect(emulator.ledger.creations).toHaveLength(1);
  });

  it('should let an idempotent create retry through a reset after processing without a second article', async () => {
    emulator.setFaults({ routes: { createArticle: { resetsAfterProcessing: 0.5 } } });
    const api = client({ idempotentCreates: true, retry: { maxAttempts: 10, baseDelayMs: 1 } });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await api.createArticle({ targetKeyword: `keyword ${i}` }, { idempotencyKey: `k-${i}` }));
    expect(emulator.requests.some((r) => r.fault === 'reset_after_processing')).toBe(true);
    expect(emulator.ledger.creations.map((c) => c.articleId)).toEqual(ids);
    expect(emulator.ledger.duplicates()).toEqual([]);
  });

  it('should send truncated JSON that the client reports as invalid_response', async () => {
    const articleId = await client().createArticle({ targetKeyword: 'x' });
    emulator.setFaults({ routes: { getArticle: { truncatedJson: 1 } } });
    await expect(client({ retry: { maxAttempts: 2, baseDelayMs: 1 } }).getArticle(articleId)).rejects.toMatchObject({ code: 'invalid_response' });
    expect(emulator.requests.filter((r) => r.fault === 'truncated_json')).toHaveLength(2);
  });

  it('should send invalid JSON on a create, which the client cannot trust', async () => {
    emulator.setFaults({ routes: { createArticle: { invalidJson: 1 } } });
    await expect(client().createArticle({ targetKeyword: 'x' })).rejects.toMatchObject({ code: 'create_outcome_unknown' });
    expect(emulator.ledger.creations).toHaveLength(1);
  });

  it('should delay slow responses past the client timeout', async () => {
    emulator.setFaults({ slowResponses: { share: 1, delayMs: 2000 } });
    // The client waits long enough for its request to reach the emulator (which marks it slow on arrival), even on a
    // loaded machine: with 50 ms it sometimes gave up before sending, and the log was empty.
    await expect(client({ timeoutMs: 1000, retry: { maxAttempts: 1 } }).getArticle('00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'timeout' });
    expect(emulator.requests[0]?.fault).toBe('slow');
  });

  it('should apply route faults only to their route', async () => {
    emulator.setFaults({ routes: { getArticle: { serverErrors: 1 } } });
    const articleId = await client().createArticle({ targetKeyword: 'x' });
    await expect(client({ retry: { maxAttempts: 1 } }).getArticle(articleId)).rejects.toMatchObject({ status: 500 });
  });

  it('should inject the same faults for the same seed and request sequence', async () => {
    const run = async (): Promise<(number | null)[]> => {
      const seeded = await startEmulator({ timing: 'instant', seed: 42, apiKey: KEY, faults: { serverErrors: 0.3, resetsBeforeProcessing: 0.2 } });
      try {
        const statuses: (number | null)[] = [];
        for (let i = 0; i < 20; i++) {
          await fetch(`${seeded.url}/api/articles/abc`, { headers: { authorization: `Bearer ${KEY}` } }).catch(() => undefined);
          statuses.push(seeded.requests[i]?.status ?? null);
        }
        return statuses;
      } finally {
        await seeded.stop();
      }
    };
    const first = await run();
    expect(new Set(first).size).toBeGreaterThan(1);
    expect(await run()).toEqual(first);
  });
});
