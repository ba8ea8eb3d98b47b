// Service internal links: injected link function, cache by content + domainId, site-only links, 402/403 handling.

import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ArticleLoaderError } from '../../src/errors.js';
import { buildLinkMap, InternalLinksError, processArticle, serviceLinksCacheKey, type ServiceLinksOptions } from '../../src/pipeline/index.js';

const SITE = 'https://www.site.example';

/** A small stand-in for the endpoint: links each phrase it knows, like the service does, and counts calls. */
function fakeService(phrases: Record<string, string>) {
  const calls: string[] = [];
  const link = async (content: string): Promise<string> => {
    calls.push(content);
    let linked = content;
    for (const [phrase, href] of Object.entries(phrases)) {
      linked = linked.replace(new RegExp(`(?<=>[^<]*)\\b(${phrase})\\b`, 'i'), `<a href="${href}">$1</a>`);
    }
    return linked;
  };
  return { calls, link };
}

function memoryCache() {
  const store = new Map<string, string>();
  return { store, get: async (key: string) => store.get(key), set: async (key: string, value: string) => void store.set(key, value) };
}

function serviceLinks(link: ServiceLinksOptions['link'], extra: Partial<ServiceLinksOptions> = {}): ServiceLinksOptions {
  return { domainId: 'dom_123', siteUrl: SITE, link, ...extra };
}

class ServiceError extends ArticleLoaderError {}

describe('service links', () => {
  test('should insert the links the service suggests, as site-relative URLs', async () => {
    const service = fakeService({ 'milk frother': `${SITE}/guides/milk-frothers/` });
    const result = await processArticle('<p>Use a milk frother.</p>', { keyword: 'k', serviceLinks: serviceLinks(service.link) });
    expect(result.html).toBe('<p>Use a <a href="/guides/milk-frothers/">milk frother</a>.</p>');
    expect(result.links).toEqual([{ href: '/guides/milk-frothers/', text: 'milk frother', internal: true, source: 'service' }]);
  });

  test('should send the article HTML as it came', async () => {
    const service = fakeService({});
    const html = '<h1>Title</h1><p>Body <script>x()</script></p>';
    await processArticle(html, { keyword: 'k', serviceLinks: serviceLinks(service.link) });
    expect(service.calls).toEqual([html]);
  });

  test('should keep only links to the registered site', async () => {
    const service = fakeService({
      alpha: 'https://other.example/alpha/',
      beta: 'javascript:alert(1)',
      gamma: '//evil.example/gamma',
      delta: `${SITE}//evil.example/delta`,
      epsilon: 'http://www.site.example/epsilon/',
      zeta: `${SITE}/zeta/`,
    });
    const result = await processArticle('<p>alpha beta gamma delta epsilon zeta</p>', { keyword: 'k', serviceLinks: serviceLinks(service.link) });
    expect(result.links.map((entry) => entry.href)).toEqual(['/zeta/']);
  });

  test('should not adopt the service’s HTML, only its link suggestions', async () => {
    const link = async () => '<p>Totally different text with <a href="/milk/">milk</a>.</p><script>alert(1)</script>';
    const result = await processArticle('<p>Warm the milk first.</p>', { keyword: 'k', serviceLinks: serviceLinks(link) });
    expect(result.html).toBe('<p>Warm the <a href="/milk/">milk</a> first.</p>');
  });

  test('should apply the local link rules to service links', async () => {
    const service = fakeService({ espresso: `${SITE}/espresso/` });
    const result = await processArticle('<h2>Espresso</h2><p><code>espresso</code> and espresso.</p>', { keyword: 'k', serviceLinks: serviceLinks(service.link) });
    expect(result.html).toBe('<h2 id="espresso">Espresso</h2><p><code>espresso</code> and <a href="/espresso/">espresso</a>.</p>');
  });

  test('should share maxLinks with local links, local first', async () => {
    const service = fakeService({ beta: `${SITE}/beta/`, gamma: `${SITE}/gamma/` });
    const result = await processArticle('<p>alpha beta gamma</p>', {
      keyword: 'k',
      maxLinks: 2,
      links: buildLinkMap({ links: { alpha: '/alpha/' } }),
      serviceLinks: serviceLinks(service.link),
    });
    expect(result.links.map((entry) => [entry.text, entry.source])).toEqual([['alpha', 'local'], ['beta', 'service']]);
  });

  test('should prefer the local link when both sources know the phrase', async () => {
    const service = fakeService({ alpha: `${SITE}/service-alpha/` });
    const result = await processArticle('<p>alpha</p>', { keyword: 'k', links: buildLinkMap({ links: { alpha: '/alpha/' } }), serviceLinks: serviceLinks(service.link) });
    expect(result.links).toEqual([{ href: '/alpha/', text: 'alpha', internal: true, source: 'local' }]);
  });

  test('should not call the service when maxLinks is 0', async () => {
    const service = fakeService({});
    await processArticle('<p>x</p>', { keyword: 'k', maxLinks: 0, serviceLinks: serviceLinks(service.link) });
    expect(service.calls).toEqual([]);
  });
});

describe('cache', () => {
  test('should key the cache by sha256 of the content and the domain id', () => {
    expect(serviceLinksCacheKey('<p>x</p>', 'dom_1')).toBe(createHash('sha256').update('<p>x</p>dom_1').digest('hex'));
  });

  test('should pay once and serve a rebuild from the cache', async () => {
    const service = fakeService({ frother: `${SITE}/frothers/` });
    const cache = memoryCache();
    const options = serviceLinks(service.link, { cache });
    const first = await processArticle('<p>A frother.</p>', { keyword: 'k', serviceLinks: options });
    const second = await processArticle('<p>A frother.</p>', { keyword: 'k', serviceLinks: options });
    expect(service.calls).toHaveLength(1);
    expect(second.html).toBe(first.html);
    expect([...cache.store.keys()]).toEqual([serviceLinksCacheKey('<p>A frother.</p>', 'dom_123')]);
  });

  test('should pay again for other content or another domain', async () => {
    const service = fakeService({});
    const cache = memoryCache();
    await processArticle('<p>one</p>', { keyword: 'k', serviceLinks: serviceLinks(service.link, { cache }) });
    await processArticle('<p>two</p>', { keyword: 'k', serviceLinks: serviceLinks(service.link, { cache }) });
    await processArticle('<p>two</p>', { keyword: 'k', serviceLinks: serviceLinks(service.link, { cache, domainId: 'dom_other' }) });
    expect(service.calls).toHaveLength(3);
  });

  test('should use a paid answer that could not be cached, and warn', async () => {
    const service = fakeService({ frother: `${SITE}/frothers/` });
    const cache = { get: async () => undefined, set: async (): Promise<void> => { throw new Error('disk full'); } };
    const result = await processArticle('<p>A frother.</p>', { keyword: 'k', slug: 's', serviceLinks: serviceLinks(service.link, { cache }) });
    expect(result.links.map((entry) => entry.href)).toEqual(['/frothers/']);
    expect(result.warnings).toEqual([expect.stringContaining('disk full')]);
    expect(result.warnings[0]).toContain('pays for them again');
  });

  test('should not cache a failed call', async () => {
    const cache = memoryCache();
    const link = async (): Promise<string> => {
      throw new ServiceError('insufficient_credits', 'Out of credits.');
    };
    await processArticle('<p>x</p>', { keyword: 'k', serviceLinks: serviceLinks(link, { cache }) });
    expect(cache.store.size).toBe(0);
  });
});

describe('errors', () => {
  test.each([
    ['insufficient_credits', 'HTTP 402: insufficient credits.'],
    ['plan_required', 'HTTP 403: professional plan required.'],
  ])('should warn and keep local links on %s by default', async (code, message) => {
    const link = async (): Promise<string> => {
      throw new ServiceError(code, message);
    };
    const result = await processArticle('<p>alpha</p>', {
      keyword: 'k',
      slug: 'my-article',
      links: buildLinkMap({ links: { alpha: '/alpha/' } }),
      serviceLinks: serviceLinks(link),
    });
    expect(result.links.map((entry) => entry.href)).toEqual(['/alpha/']);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain('my-article');
    expect(result.warnings[0]).toContain(message);
    expect(result.warnings[0]).toContain(`[${code}]`);
  });

  test.each(['insufficient_credits', 'plan_required'])('should throw InternalLinksError with code %s when onError is "fail"', async (code) => {
    const link = async (): Promise<string> => {
      throw new ServiceError(code, 'refused');
    };
    const promise = processArticle('<p>x</p>', { keyword: 'k', slug: 'my-article', serviceLinks: serviceLinks(link, { onError: 'fail' }) });
    await expect(promise).rejects.toBeInstanceOf(InternalLinksError);
    await expect(promise).rejects.toMatchObject({ code, message: expect.stringContaining('"my-article"') });
  });

  test('should treat a non-string answer as a failure', async () => {
    const link = async () => undefined as unknown as string;
    const result = await processArticle('<p>x</p>', { keyword: 'k', serviceLinks: serviceLinks(link) });
    expect(result.warnings[0]).toContain('internal_links_bad_answer');
  });
});
