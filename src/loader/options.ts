// The loader's options: what each one means, its default, and validation with messages that say what to do.
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { ArticleLoaderError } from '../errors.js';
import type { EmulatorTiming } from '../service/embedded-emulator.js';
import { chooseService, ServiceConfigError, type ServiceSettings } from '../service/service-settings.js';
import { forAstro } from './astro-error.js';
import type { ExternalRelOption, ExternalTargetOption } from '../pipeline/index.js';
import { DEFAULT_BUDGET, DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS, frozenByDefault } from '../sync/index.js';

import { API_KEY_ENV } from '../service/service-settings.js';
export { API_KEY_ENV, API_URL_ENV } from '../service/service-settings.js';
export type { EmulatorTiming, ServiceSettings };

export const DEFAULT_MANIFEST = './articles.yaml';
export const DEFAULT_DEBOUNCE_MS = 1_000;
export const DEFAULT_IMAGE_DIR = 'public/_articles';
export const DEFAULT_IMAGE_PUBLIC_PATH = '/_articles/';
export const EMULATOR_TIMINGS = ['fast', 'realtime', 'instant'] as const;

/** Everything `articleLoader()` accepts. Every option is optional; the defaults build a site offline. */
export interface ArticleLoaderOptions {
  /**
   * The manifest of keywords: a `.yaml`, `.yml`, `.json` or `.csv` file, relative to the Astro
   * project root. Default `'./articles.yaml'`. Not used when `articles` is given.
   */
  manifest?: string;
  /** An inline manifest instead of a file: keywords or `{ keyword, ...request parameters }` objects. */
  articles?: unknown[];
  /** Request parameters applied to every inline article (with `articles` only; a file has its own `defaults`). */
  defaults?: Record<string, unknown>;
  /**
   * The lock file (`articles.lock.json`) or the directory holding it, relative to the root. The
   * output cache is the `articles.cache/` directory beside it. Default: beside the manifest (the
   * root for an inline manifest). Commit both.
   */
  lockFile?: string;
  /**
   * The service's API key. Default: the `ARTICLES_API_KEY` environment variable. Pass it through
   * `astro:env` (`import { ARTICLES_API_KEY } from 'astro:env/server'`), never as a literal.
   */
  apiKey?: string | undefined;
  /** The service's address. Default: the `ARTICLES_API_URL` environment variable. With neither key nor address: offline mode. */
  baseUrl?: string | undefined;
  /** An article's URL on the site, for internal links between articles. Default `` `${base}/articles/${slug}/` ``. */
  url?: (slug: string) => string;
  /** Your own phrases to link: `{ 'espresso': '/guides/espresso/' }` or `[{ phrase, url }]`. They win over article keywords. */
  links?: Record<string, string> | { phrase: string; url: string }[];
  /** Most internal links inserted into one article. Default 10; 0 turns internal linking off. */
  maxLinks?: number;
  /** Use the service's polished HTML when it has one. Default true. */
  usePolished?: boolean;
  /** `rel` and `target` of links to other sites. Default `rel`: `sponsored` in product articles, `nofollow` elsewhere; no `target`. */
  externalLinks?: { rel?: ExternalRelOption; target?: ExternalTargetOption };
  /** Hosts whose iframes are kept (and subdomains). Default youtube.com, youtube-nocookie.com, player.vimeo.com. */
  embedHosts?: string[];
  /** Prefix of generated heading ids. Default `''`. */
  headingIdPrefix?: string;
  /**
   * Store the articles' images on the site instead of hot-linking the service's URLs. `true` writes
   * them to `public/_articles/` served at `/_articles/`; or give `{ dir, publicPath }`. Default false.
   */
  downloadImages?: boolean | { dir?: string; publicPath?: string; maxBytes?: number; timeoutMs?: number };
  /**
   * The service's internal-links endpoint (1 credit per article, paid once: answers are kept in the
   * cache). `domainId`: your registered domain's id; `siteUrl`: its origin; `onError`: `'warn'`
   * (default, local links only) or `'fail'`. Default: not used.
   */
  internalLinks?: { domainId: string; siteUrl: string; onError?: 'warn' | 'fail' };
  /** Most new (paid) articles one run may create; more fails before any is created. Default 25. */
  budget?: number;
  /** Never create an article; fail listing what would be created (like `npm ci`). Default: on when the `CI` environment variable is set. */
  frozen?: boolean;
  /**
   * What an article that cannot be served (failed, timed out, unreachable service) does to a build:
   * `'skip'` (default) logs it and builds the site without it, so an outage never breaks a deploy;
   * `'fail'` fails the build listing every such article.
   */
  onFailure?: 'skip' | 'fail';
  /** Longest time a build waits for articles being written, in ms. Default 1,800,000 (30 min). */
  timeoutMs?: number;
  /** Creates in flight at once. Default 4. */
  concurrency?: number;
  /**
   * The service honours `Idempotency-Key`, so a create whose outcome was unknown is repeated with
   * the same key automatically, which cannot bill twice. Default: on for the embedded emulator
   * (it honours the key), off for the real service (the spec doesn't show the header).
   */
  idempotentCreates?: boolean;
  /**
   * Create again the articles whose create had an unknown outcome (it may have been billed): `true`
   * for all, or a list of slugs. Each is paid for again unless the service honours idempotency keys;
   * look for the article on the service's queue page first and `adopt` it if it is there.
   * Remove the option once the build has run. Default: none.
   */
  retryUnknown?: boolean | string[];
  /** Create failed articles again (each a new, paid article): `true` for all, or a list of slugs. Remove it once the build has run. Default: none. */
  retryFailed?: boolean | string[];
  /**
   * Longest time one request to the service may take, whole (connecting, headers and body), in ms.
   * After several requests in a row time out or are refused, the build stops asking the service and
   * serves what the lock file and the cache have. Default: the client's (see the README).
   */
  requestTimeoutMs?: number;
  /** Dev server: wait this long after the last manifest edit before acting on it, in ms. Default 1000. */
  debounceMs?: number;
  /**
   * The embedded emulator of offline mode: its writing speed, `'fast'` (the default, seconds),
   * `'realtime'` (tens of seconds, like the real service), `'instant'`, or `{ writingMs, queueDelayMs? }`.
   */
  emulator?: { timing?: EmulatorTiming };
}

/** A mistake in the options given to `articleLoader()`; the message names the option and says how to fix it. */
export class LoaderOptionError extends ArticleLoaderError {
  constructor(message: string) {
    super('invalid_loader_options', message);
    forAstro(this);
  }
}

/** The options after validation and defaults (the URL default needs Astro's config and is applied at load time). */
export interface ResolvedLoaderOptions {
  manifest: { kind: 'file'; path: string } | { kind: 'inline'; articles: unknown[]; defaults: Record<string, unknown> | undefined };
  lockFile: string | undefined;
  service: ServiceSettings;
  url: ((slug: string) => string) | undefined;
  links: Record<string, string> | { phrase: string; url: string }[] | undefined;
  maxLinks: number | undefined;
  usePolished: boolean;
  externalLinks: { rel?: ExternalRelOption; target?: ExternalTargetOption } | undefined;
  embedHosts: string[] | undefined;
  headingIdPrefix: string | undefined;
  downloadImages: { dir: string; publicPath: string; maxBytes?: number; timeoutMs?: number } | undefined;
  internalLinks: { domainId: string; siteUrl: string; onError: 'warn' | 'fail' } | undefined;
  budget: number;
  frozen: boolean;
  onFailure: 'skip' | 'fail';
  timeoutMs: number;
  concurrency: number;
  debounceMs: number;
  idempotentCreates: boolean;
  retryUnknown: true | string[] | undefined;
  retryFailed: true | string[] | undefined;
  requestTimeoutMs: number | undefined;
}

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { error: `must be a function ${what}` });
const wholeAtLeast = (min: number, advice: string) =>
  z.number({ error: `must be a number; ${advice}` }).int({ error: `must be a whole number; ${advice}` }).min(min, { error: `must be ${min} or more; ${advice}` });
const slugSelection = z.union([z.boolean(), z.array(z.string().min(1))], { error: 'must be true (every such article) or a list of slugs, e.g. ["best-hiking-boots"]' });
const relToken = z.string({ error: 'must be rel tokens (nofollow, sponsored, ugc, noreferrer, external), a list of them, false, or a function' });

const optionsSchema = z.strictObject({
  manifest: z.string({ error: 'must be the path of a .yaml, .yml, .json or .csv file, relative to the project root' }).min(1, {
    error: 'must not be empty; leave it out for ./articles.yaml',
  }),
  articles: z.array(z.unknown(), { error: 'must be a list of keywords or { keyword, ...parameters } objects' }),
  defaults: z.record(z.string(), z.unknown(), { error: 'must be an object of request parameters, e.g. { articleLength: "short" }' }),
  lockFile: z.string({ error: 'must be a path (the lock file, or the directory holding it)' }).min(1, { error: 'must not be empty' }),
  apiKey: z.string({ error: `must be a string; pass it through astro:env (import { ${API_KEY_ENV} } from 'astro:env/server')` }).optional(),
  baseUrl: z
    .string({ error: 'must be the service address as a string, e.g. "https://api.example.com"' })
    .refine((value) => /^https?:\/\/[^/\s]+/.test(value) && URL.canParse(value), { error: 'must be an absolute http(s) URL, e.g. "https://api.example.com"' })
    .optional(),
  url: fn<(slug: string) => string>('(slug) => string, e.g. (slug) => `/blog/${slug}/`'),
  links: z.union(
    [z.record(z.string(), z.string()), z.array(z.strictObject({ phrase: z.string(), url: z.string() }))],
    { error: "must be { 'phrase': '/url/' } or a list of { phrase, url }" },
  ),
  maxLinks: wholeAtLeast(0, 'use 0 to turn internal links off'),
  usePolished: z.boolean({ error: 'must be true or false' }),
  externalLinks: z.strictObject(
    {
      rel: z.union([z.literal(false), relToken, z.array(relToken), fn('(link) => rel tokens')], {
        error: 'must be rel tokens (nofollow, sponsored, ugc, noreferrer, external), a list of them, false, or a function',
      }),
      target: z.union([z.enum(['_blank', '_self', '_parent', '_top']), fn('(link) => target')], {
        error: 'must be "_blank", "_self", "_parent", "_top" or a function',
      }),
    },
    { error: 'must be { rel?, target? }' },
  ).partial(),
  embedHosts: z.array(z.string(), { error: 'must be a list of host names, e.g. ["youtube.com"]' }),
  headingIdPrefix: z.string().regex(/^[A-Za-z0-9_-]*$/, { error: 'must be letters, digits, "-" or "_" only' }),
  downloadImages: z.union(
    [
      z.boolean(),
      z.strictObject({
        dir: z.string().min(1),
        publicPath: z.string().regex(/^\//, { error: 'must be a URL path starting with "/"' }),
        maxBytes: z.number().int().positive(),
        timeoutMs: z.number().int().positive(),
      }).partial(),
    ],
    { error: 'must be true, false or { dir, publicPath } (e.g. { dir: "public/images/articles", publicPath: "/images/articles/" })' },
  ),
  internalLinks: z.strictObject(
    {
      domainId: z.string({ error: 'is required: the id of your domain registered with the service' }).min(1, { error: 'must not be empty' }),
      siteUrl: z
        .string({ error: 'is required: your site as an absolute URL, e.g. "https://example.com"' })
        .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), { error: 'must be an absolute http(s) URL, e.g. "https://example.com"' }),
      onError: z.enum(['warn', 'fail'], { error: 'must be "warn" or "fail"' }).optional(),
    },
    { error: 'must be { domainId, siteUrl, onError? }' },
  ),
  budget: wholeAtLeast(0, 'it is how many new (paid) articles one run may create, e.g. budget: 25'),
  frozen: z.boolean({ error: 'must be true or false' }),
  onFailure: z.enum(['skip', 'fail'], { error: 'must be "skip" (build without the article) or "fail" (fail the build)' }),
  timeoutMs: wholeAtLeast(1, 'it is the longest a build waits for articles, in milliseconds'),
  concurrency: wholeAtLeast(1, 'it is how many creates run at once, e.g. 4'),
  idempotentCreates: z.boolean({ error: 'must be true or false' }),
  retryUnknown: slugSelection,
  retryFailed: slugSelection,
  requestTimeoutMs: wholeAtLeast(1, 'it is the longest one request to the service may take, in milliseconds'),
  debounceMs: wholeAtLeast(0, 'it is how long the dev server waits after the last manifest edit, in milliseconds'),
  emulator: z.strictObject(
    {
      timing: z.union(
        [
          z.enum(EMULATOR_TIMINGS),
          z.strictObject({ writingMs: z.number().nonnegative(), queueDelayMs: z.number().nonnegative().optional() }),
        ],
        { error: `must be ${EMULATOR_TIMINGS.map((t) => `"${t}"`).join(', ')} or { writingMs, queueDelayMs? } in milliseconds` },
      ),
    },
    { error: 'must be { timing }' },
  ).partial(),
}).partial();

const OPTION_NAMES = Object.keys(optionsSchema.shape);
const NESTED_OPTION_NAMES: Readonly<Record<string, readonly string[]>> = {
  externalLinks: ['rel', 'target'],
  downloadImages: ['dir', 'publicPath', 'maxBytes', 'timeoutMs'],
  internalLinks: ['domainId', 'siteUrl', 'onError'],
  emulator: ['timing'],
};

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}

function unknownKeyMessage(key: string, parent: string): string {
  const name = parent === '' ? `\`${key}\`` : `\`${parent}.${key}\``;
  const names = parent === '' ? OPTION_NAMES : (NESTED_OPTION_NAMES[parent] ?? []);
  const guess = names.length > 0 ? closest(key, [...names]) : undefined;
  const close = guess !== undefined && distance(key.toLowerCase(), guess.toLowerCase()) <= Math.max(2, Math.floor(key.length / 3));
  const hint = close ? `did you mean \`${guess}\`? ` : '';
  return `unknown option ${name}: ${hint}(the options${parent === '' ? '' : ` of ${parent}`} are ${names.join(', ')})`;
}

function problemsOf(error: z.ZodError): string[] {
  const problems: string[] = [];
  for (const issue of error.issues) {
    const at = pathOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(unknownKeyMessage(key, at));
    } else {
      problems.push(`\`${at || '(options)'}\` ${issue.message}`);
    }
  }
  return problems;
}

function fail(problems: string[]): never {
  const list = problems.map((problem) => `  - ${problem}`).join('\n');
  throw new LoaderOptionError(`articleLoader() in your content config has ${problems.length === 1 ? 'a wrong option' : `${problems.length} wrong options`}:\n${list}`);
}

/** The service the options and the environment name; half a configuration is an option error. */
function resolveService(options: ArticleLoaderOptions, env: Readonly<Record<string, string | undefined>>): ServiceSettings {
  try {
    return chooseService({ apiKey: options.apiKey, baseUrl: options.baseUrl, offlineWhenUnset: true, timing: options.emulator?.timing ?? 'fast', audience: 'loader' }, env);
  } catch (error) {
    if (error instanceof ServiceConfigError) throw new LoaderOptionError(error.message);
    throw error;
  }
}

/** Validate the options (throws LoaderOptionError listing every problem) and apply the defaults. */
export function resolveLoaderOptions(input: unknown, env: Readonly<Record<string, string | undefined>> = process.env): ResolvedLoaderOptions {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    fail(['articleLoader() takes one options object, e.g. articleLoader({ manifest: "./articles.yaml" })']);
  }
  const parsed = optionsSchema.safeParse(input ?? {});
  if (!parsed.success) fail(problemsOf(parsed.error));
  const options = parsed.data as ArticleLoaderOptions;
  const problems: string[] = [];
  if (options.articles !== undefined && options.manifest !== undefined) {
    problems.push('`manifest` and `articles` are both set; use a manifest file or inline articles, not both');
  }
  if (options.defaults !== undefined && options.articles === undefined) {
    problems.push('`defaults` is for inline `articles` only; put defaults in the manifest file under `defaults:`');
  }
  if (problems.length > 0) fail(problems);

  const download = options.downloadImages;
  const service = resolveService(options, env);
  return {
    manifest:
      options.articles === undefined
        ? { kind: 'file', path: options.manifest ?? DEFAULT_MANIFEST }
        : { kind: 'inline', articles: options.articles, defaults: options.defaults },
    lockFile: options.lockFile,
    service,
    url: options.url,
    links: options.links,
    maxLinks: options.maxLinks,
    usePolished: options.usePolished ?? true,
    externalLinks: options.externalLinks,
    embedHosts: options.embedHosts,
    headingIdPrefix: options.headingIdPrefix,
    downloadImages:
      download === undefined || download === false
        ? undefined
        : {
            dir: (download === true ? undefined : download.dir) ?? DEFAULT_IMAGE_DIR,
            publicPath: (download === true ? undefined : download.publicPath) ?? DEFAULT_IMAGE_PUBLIC_PATH,
            ...(download !== true && download.maxBytes !== undefined ? { maxBytes: download.maxBytes } : {}),
            ...(download !== true && download.timeoutMs !== undefined ? { timeoutMs: download.timeoutMs } : {}),
          },
    internalLinks: options.internalLinks === undefined ? undefined : { ...options.internalLinks, onError: options.internalLinks.onError ?? 'warn' },
    budget: options.budget ?? DEFAULT_BUDGET,
    frozen: options.frozen ?? frozenByDefault(env),
    onFailure: options.onFailure ?? 'skip',
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    debounceMs: options.debounceMs ?? DEFAULT_DEBOUNCE_MS,
    ...serviceRules(options, service),
  };
}

/** How creates are repeated: idempotent creates default to on for the embedded emulator, which honours the key. */
function serviceRules(options: ArticleLoaderOptions, service: ServiceSettings): Pick<ResolvedLoaderOptions, 'idempotentCreates' | 'retryUnknown' | 'retryFailed' | 'requestTimeoutMs'> {
  const selection = (value: boolean | string[] | undefined): true | string[] | undefined => (value === true ? true : Array.isArray(value) ? value : undefined);
  return {
    idempotentCreates: options.idempotentCreates ?? service.mode === 'offline',
    retryUnknown: selection(options.retryUnknown),
    retryFailed: selection(options.retryFailed),
    requestTimeoutMs: options.requestTimeoutMs,
  };
}
