import { describe, expect, it } from 'vitest';
import * as api from '../../src/index.js';
import { LoaderOptionError, resolveLoaderOptions } from '../../src/loader/options.js';

const SECRET = 'sk_live_do-not-print-me-123456';

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LoaderOptionError);
    return (error as Error).message;
  }
  throw new Error('expected a LoaderOptionError');
}

describe('public API', () => {
  it('should expose the loader, the integration, the entry schema, the option errors, the error classes and the page helpers (details, JSON-LD, alternates)', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'API_KEY_ENV',
        'API_URL_ENV',
        'AlternatesError',
        'ArticleLoaderError',
        'ArticleServiceError',
        'ArticlesNotReadyError',
        'CorruptLockError',
        'ENTRY_STATUSES',
        'FrozenLockError',
        'IntegrationOptionError',
        'InternalLinksError',
        'LOADER_NAME',
        'LoaderOptionError',
        'LockBusyError',
        'ManifestError',
        'OverBudgetError',
        'PipelineOptionError',
        'SyncError',
        'SyncFailedError',
        'UnsupportedLockVersionError',
        'alternateLinkTags',
        'articleAlternates',
        'articleDetails',
        'articleEntrySchema',
        'articleJsonLd',
        'articleLoader',
        'articles',
        'jsonLdScript',
        'sitemapAlternates',
      ].sort(),
    );
  });

  it('should return an Astro loader object with a name, a load function and a schema', () => {
    const loader = api.articleLoader({}); // offline: no env in the options
    expect(loader.name).toBe('astro-article-loader');
    expect(typeof loader.load).toBe('function');
    expect(loader.schema).toBe(api.articleEntrySchema);
  });

  it('should add to the schema the details entryData asks for, and only those', () => {
    const schema = api.articleLoader({ entryData: ['request', 'findings'] }).schema;
    const slimData = { ...api.articleEntrySchema.shape };
    expect(Object.keys(schema.shape).sort()).toEqual([...Object.keys(slimData), 'config'].sort());
    expect(Object.keys((schema.shape.quality as unknown as { shape: object }).shape).sort()).toEqual(['errors', 'findings', 'warnings']);
    expect(Object.keys((api.articleEntrySchema.shape.quality as unknown as { shape: object }).shape).sort()).toEqual(['errors', 'warnings']);
  });
});

describe('resolveLoaderOptions', () => {
  it('should default to offline mode when neither options nor environment name a service', () => {
    const resolved = resolveLoaderOptions({}, {});
    expect(resolved.service).toEqual({ mode: 'offline', timing: 'fast' });
    expect(resolved.manifest).toEqual({ kind: 'file', path: './articles.yaml' });
  });

  it('should apply the documented defaults', () => {
    const resolved = resolveLoaderOptions({}, {});
    expect(resolved).toMatchObject({ budget: 25, frozen: false, onFailure: 'skip', usePolished: true, debounceMs: 1000, downloadImages: undefined });
  });

  it('should read the service from ARTICLES_API_URL and ARTICLES_API_KEY', () => {
    const resolved = resolveLoaderOptions({}, { ARTICLES_API_URL: 'https://api.example.com', ARTICLES_API_KEY: SECRET });
    expect(resolved.service).toEqual({ mode: 'remote', baseUrl: 'https://api.example.com', apiKey: SECRET, source: 'env' });
  });

  it('should refuse a baseUrl without a key and show how to pass one through astro:env', () => {
    const message = messageOf(() => resolveLoaderOptions({ baseUrl: 'https://api.example.com' }, {}));
    expect(message).toContain("envField.string({ context: 'server', access: 'secret' })");
    expect(message).toContain("import { ARTICLES_API_KEY } from 'astro:env/server'");
  });

  it('should refuse a key without a service address', () => {
    const message = messageOf(() => resolveLoaderOptions({ apiKey: SECRET }, {}));
    expect(message).toContain('pass `baseUrl`');
    expect(message).not.toContain(SECRET);
  });

  it('should refuse an address with a password or a query, and a key with a space, before any run starts, showing neither secret', () => {
    const withPassword = messageOf(() => resolveLoaderOptions({}, { ARTICLES_API_URL: 'https://user:pw-s3cret@api.example.com/v1', ARTICLES_API_KEY: SECRET }));
    expect(withPassword).toContain('ARTICLES_API_URL must not contain a user name or password');
    expect(withPassword).toContain('(got "https://api.example.com/v1")');
    expect(withPassword).not.toContain('pw-s3cret');
    const withQuery = messageOf(() => resolveLoaderOptions({ baseUrl: 'https://api.example.com/?token=q-s3cret', apiKey: SECRET }, {}));
    expect(withQuery).toContain('`baseUrl` must not have a query or a fragment');
    expect(withQuery).not.toContain('q-s3cret');
    const spaced = messageOf(() => resolveLoaderOptions({}, { ARTICLES_API_URL: 'https://api.example.com', ARTICLES_API_KEY: `${SECRET} x` }));
    expect(spaced).toContain('ARTICLES_API_KEY contains spaces, line breaks or non-ASCII characters');
    expect(spaced).not.toContain(SECRET);
    const given = messageOf(() => resolveLoaderOptions({ baseUrl: 'https://api.example.com', apiKey: `${SECRET}é` }, {}));
    expect(given).toContain('`apiKey` contains spaces');
  });

  it('should name a mistyped option and suggest the right one', () => {
    const message = messageOf(() => resolveLoaderOptions({ budgett: 3 }, {}));
    expect(message).toContain('unknown option `budgett`: did you mean `budget`?');
  });

  it('should say what is wrong with a value and what to use', () => {
    const message = messageOf(() => resolveLoaderOptions({ budget: -1, onFailure: 'ignore' }, {}));
    expect(message).toContain('2 wrong options');
    expect(message).toContain('`budget` must be 0 or more');
    expect(message).toContain('`onFailure` must be "skip" (build without the article) or "fail" (fail the build)');
  });

  it('should take pollIntervalMs as a whole number of milliseconds and refuse anything else, saying what it is', () => {
    expect(resolveLoaderOptions({ pollIntervalMs: 20 }, {}).pollIntervalMs).toBe(20);
    expect(resolveLoaderOptions({}, {}).pollIntervalMs).toBeUndefined();
    for (const value of [0, 2.5, '1s']) expect(messageOf(() => resolveLoaderOptions({ pollIntervalMs: value }, {}))).toMatch(/`pollIntervalMs` must be .*; it is the first and shortest gap between two polls of an article, in milliseconds/);
  });

  it('should name the cover card field that is wrong: a colour that is not hex, an empty site name, a mistyped member', () => {
    expect(messageOf(() => resolveLoaderOptions({ coverCard: { colors: ['#111', 'blue'] } }, {}))).toContain('`coverCard.colors[1]` must be a hex colour such as "#1e3a8a"');
    expect(messageOf(() => resolveLoaderOptions({ coverCard: { siteName: '' } }, {}))).toContain('`coverCard.siteName` must not be empty');
    expect(messageOf(() => resolveLoaderOptions({ coverCard: { color: '#111' } }, {}))).toContain('unknown option `coverCard.color`: did you mean `colors`?');
    expect(resolveLoaderOptions({}, {}).coverCard).toBe(true);
  });

  it('should never put the API key into an error message', () => {
    const message = messageOf(() => resolveLoaderOptions({ apiKey: SECRET, baseUrl: 'not a url', budget: 'lots' }, {}));
    expect(message).not.toContain(SECRET);
  });

  it('should turn frozen mode on when CI is set, unless the option says otherwise', () => {
    expect(resolveLoaderOptions({}, { CI: 'true' }).frozen).toBe(true);
    expect(resolveLoaderOptions({}, { CI: 'false' }).frozen).toBe(false);
    expect(resolveLoaderOptions({ frozen: false }, { CI: '1' }).frozen).toBe(false);
  });

  it('should refuse a manifest file and inline articles together', () => {
    expect(messageOf(() => resolveLoaderOptions({ manifest: './a.yaml', articles: ['x'] }, {}))).toContain('`manifest` and `articles` are both set');
  });

  it('should resolve downloadImages: true to public/_articles/ served at /_articles/', () => {
    expect(resolveLoaderOptions({ downloadImages: true }, {}).downloadImages).toEqual({ dir: 'public/_articles', publicPath: '/_articles/' });
  });
});
