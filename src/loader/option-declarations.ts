// The loader's options, declared once: each option's check (with a message that says what to do), its default, and its line in the README.
import { z } from 'zod';
import { documentedOptions } from '../lang/documented-options.js';
import { articleContextSchema } from '../pipeline/pipeline-options.js';
import { flawOptionsSchema, WRITER_KEY_ENV } from '../service/embedded-emulator.js';
import { API_KEY_ENV } from '../service/service-settings.js';
import { qualityOptionsSchema } from '../quality/quality-options.js';
import { DEFAULT_BUDGET, DEFAULT_CREATE_CONCURRENCY, DEFAULT_RUN_TIMEOUT_MS, OFFLINE_POLL_MS } from '../sync/run-rules.js';
import { DEFAULT_POLL_TIMING } from '../sync/poll-schedule.js';
import { coverCardOptionSchema } from '../cover/card-options.js';
import type { DataSchema } from './entry-data.js';

export const DEFAULT_MANIFEST = './articles.yaml';
export const DEFAULT_DEBOUNCE_MS = 1_000;
export const DEFAULT_IMAGE_DIR = 'public/_articles';
export const DEFAULT_IMAGE_PUBLIC_PATH = '/_articles/';
export const EMULATOR_TIMINGS = ['fast', 'realtime', 'instant'] as const;
/** The details `entryData` can put back on an entry (each part's fields: `ENTRY_DETAIL_FIELDS` in entry-schema.ts). */
export const ENTRY_DATA_PARTS = ['findings', 'request', 'headings', 'images', 'links'] as const;
export type EntryDataPart = (typeof ENTRY_DATA_PARTS)[number];

const documented = documentedOptions();

/** An option: its check, and its documentation, in one place. */
const option = documented.declare;

/** A zod object schema, from Astro's zod (3 or 4) or the package's own. */
function isZodObject(value: unknown): value is DataSchema {
  return typeof value === 'object' && value !== null && typeof (value as { safeParse?: unknown }).safeParse === 'function' && typeof (value as { shape?: unknown }).shape === 'object';
}

const fn = <T>(what: string) => z.custom<T>((value) => typeof value === 'function', { error: `must be a function ${what}` });
const wholeAtLeast = (min: number, advice: string) =>
  z.number({ error: `must be a number; ${advice}` }).int({ error: `must be a whole number; ${advice}` }).min(min, { error: `must be ${min} or more; ${advice}` });
const slugSelection = z.union([z.boolean(), z.array(z.string().min(1))], { error: 'must be true (every such article) or a list of slugs, e.g. ["best-hiking-boots"]' });
const absoluteUrl = (what: string) => z.string({ error: `is required: ${what}` }).refine((value) => /^https?:\/\/[^/\s]+/.test(value) && URL.canParse(value), { error: 'must be an absolute http(s) URL, e.g. "https://example.com"' });

// The pipeline's rules for the options the loader hands it: each is written once, in src/pipeline;
// the declarations below add only the loader's shapes (strict objects, `true` for defaults) and defaults.
const pipelineRules = articleContextSchema.shape;
const externalLinkRules = pipelineRules.externalLinks.unwrap().shape;
const serviceLinkRules = pipelineRules.serviceLinks.unwrap().shape;
const downloadRules = pipelineRules.downloadImages.unwrap().shape;

const sourceOptions = {
  ...option('manifest', z.string({ error: 'must be the path of a .yaml, .yml, .json or .csv file, relative to the project root' }).min(1, { error: 'must not be empty; leave it out for ./articles.yaml' }).optional(), {
    default: "`'./articles.yaml'`",
    meaning: '`.yaml`/`.yml`/`.json`/`.csv`, relative to the project root',
  }),
  ...option('articles', z.array(z.unknown(), { error: 'must be a list of keywords or { keyword, ...parameters } objects' }).optional(), {
    default: '—',
    meaning: 'an inline manifest instead of a file: keywords or `{ keyword, ...parameters }`',
  }),
  ...option('defaults', z.record(z.string(), z.unknown(), { error: 'must be an object of request parameters, e.g. { articleLength: "short" }' }).optional(), {
    default: '—',
    meaning: 'request parameters for every inline article (with `articles` only)',
  }),
  ...option('lockFile', z.string({ error: 'must be a path (the lock file, or the directory holding it)' }).min(1, { error: 'must not be empty' }).optional(), {
    default: 'beside the manifest (project root for inline articles)',
    meaning: 'lock file or its directory; `articles.cache/` sits beside it',
  }),
};

const partNames = ENTRY_DATA_PARTS.map((part) => `"${part}"`).join(', ');

/** The site owner's own entry data and what a build includes. */
const contentOptions = {
  ...option('dataSchema', z.custom<DataSchema>((value) => isZodObject(value), { error: "must be a zod object from 'astro/zod', e.g. z.object({ category: z.string() })" }).optional(), {
    default: 'none',
    meaning: "an `astro/zod` object for each entry's own fields (the manifest's `data:`): checked when the manifest is read (errors name file, entry and field, before anything is paid), and it types `entry.data`",
  }),
  ...option('entryData', z.array(z.enum(ENTRY_DATA_PARTS, { error: `must be one of ${partNames}` }), { error: `must be a list of ${partNames}, e.g. ['findings']` }).default([]), {
    default: '`[]`',
    meaning:
      "details put back on each entry, typed (see **Entry data** below): `'findings'` (`quality.findings`), `'request'` (`config`), `'headings'`, `'images'`, `'links'` (every link as `{ href, text, internal, source }`); without them an entry carries what a page renders, and `articleDetails(entry)` reads them at build time",
  }),
  ...option('drafts', z.boolean({ error: 'must be true or false' }).default(false), {
    default: '`false`',
    meaning: '`true` includes `draft: true` and future-dated (`publishDate`) entries in `astro build`; the dev server always shows them',
  }),
  ...option('review', z.boolean({ error: 'must be true (each article waits for `astro-article-loader approve` before a build publishes it) or false' }).optional(), {
    default: "the manifest's `review:`, else `false`",
    meaning: '`true`: an article whose output nobody approved (`approve`) or hand-edited is left out of `astro build` and marked in dev (`entry.data.review`); prefer `review:` in the manifest, which the CLI reads too (see docs/review.md)',
  }),
  ...option('coverCard', coverCardOptionSchema.default(true), {
    default: '`true`',
    meaning: "an article without images gets a generated 1200×630 PNG card as `entry.data.cover`: its title and the site's name on a colour; `{ colors, siteName }`: hex colours (each article takes one by its slug) and the name (default: the host of Astro's `site`, else package.json `name`); `false`: no card, the cover is null (see docs/running-a-site.md)",
  }),
  // Checked first by options.ts with the quality room's own messages (did-you-mean for codes and severities).
  ...option('quality', qualityOptionsSchema.optional(), {
    default: "the manifest's `quality:`, else the defaults",
    meaning: "the quality checks' settings (`codes`, `lengthBand`, `nearDuplicateThreshold`, …, see docs/quality.md); given, they win over the manifest's for the build. Keep them in the manifest, where `check` and `status` read them too",
  }),
};

const serviceOptions = {
  ...option('apiKey', z.string({ error: `must be a string; pass it through astro:env (import { ${API_KEY_ENV} } from 'astro:env/server')` }).optional(), {
    default: 'env `ARTICLES_API_KEY`',
    meaning: 'pass it through `astro:env`, never as a literal',
  }),
  ...option('baseUrl', absoluteUrl('the service address, e.g. "https://api.example.com"').optional(), {
    default: 'env `ARTICLES_API_URL`',
    meaning: "the service's address; a `baseUrl` without a key is an error that explains `astro:env`",
  }),
  ...option('requestTimeoutMs', wholeAtLeast(1, 'it is the longest one request to the service may take, in milliseconds').optional(), {
    default: "the client's (`30000`)",
    meaning: 'longest one request may take, whole; after several in a row time out or are refused, the run stops asking the service and serves what it has',
  }),
  ...option('idempotentCreates', z.boolean({ error: 'must be true or false' }).optional(), {
    default: 'on offline, off against the real service',
    meaning: 'the service honours `Idempotency-Key`: an `unknown` create is repeated with the same key, which cannot bill twice',
  }),
  ...option('emulator', z.strictObject({
    timing: z.union([z.enum(EMULATOR_TIMINGS), z.strictObject({ writingMs: z.number().nonnegative(), queueDelayMs: z.number().nonnegative().optional() })], {
      error: `must be ${EMULATOR_TIMINGS.map((t) => `"${t}"`).join(', ')} or { writingMs, queueDelayMs? } in milliseconds`,
    }).optional(),
    writer: z.strictObject({
      url: absoluteUrl('the base URL of an OpenAI-compatible server, e.g. "http://127.0.0.1:8080/v1"'),
      model: z.string({ error: 'must be the model name the server knows, e.g. "qwen2.5-7b-instruct"' }).min(1, { error: 'must not be empty' }).optional(),
      concurrency: wholeAtLeast(1, 'it is how many articles the model writes at once, e.g. 1').optional(),
      timeoutMs: wholeAtLeast(1, "it is the longest wait for the model's next bytes, in milliseconds").optional(),
    }, { error: `must be { url, model?, concurrency?, timeoutMs? }; the key comes from ${WRITER_KEY_ENV} only` }).optional(),
    flaws: flawOptionsSchema.optional(),
  }, { error: 'must be { timing?, writer?, flaws? }' }).optional(), {
    default: "`{ timing: 'fast' }`",
    meaning: "offline emulator: `timing` (`'fast'`, `'realtime'`, `'instant'` or `{ writingMs }`); `writer: { url, model, concurrency?, timeoutMs? }` writes real articles with your own model (OpenAI-compatible server; key in env `ARTICLES_WRITER_KEY`), default env `ARTICLES_WRITER_URL`, else placeholder text; `flaws` plants flaws for trying the quality checks ([docs/emulator.md](docs/emulator.md#flawed-articles))",
  }),
};

const pageOptions = {
  ...option('url', fn<(slug: string) => string>('(slug) => string, e.g. (slug) => `/blog/${slug}/`').optional(), {
    default: '`` `${base}/articles/${slug}/` ``',
    meaning: "an article's URL, used for internal links",
  }),
  ...option('links', z.union([z.record(z.string(), z.string()), z.array(z.strictObject({ phrase: z.string(), url: z.string() }))], { error: "must be { 'phrase': '/url/' } or a list of { phrase, url }" }).optional(), {
    default: 'none',
    meaning: 'your own phrase → URL links; they win over article keywords',
  }),
  ...option('maxLinks', pipelineRules.maxLinks, { default: '`10`', meaning: 'most internal links per article; `0` turns them off' }),
  ...option('usePolished', z.boolean({ error: 'must be true or false' }).default(true), { default: '`true`', meaning: "use the service's polished HTML when there is one" }),
  ...option('externalLinks', z.strictObject(externalLinkRules, { error: 'must be { rel?, target? }' }).optional(), {
    default: '`rel`: `sponsored` in product articles, `nofollow` elsewhere; no `target`',
    meaning: '`{ rel, target }`, each a value or a function',
  }),
  ...option('embedHosts', pipelineRules.embedHosts, {
    default: 'youtube.com, youtube-nocookie.com, player.vimeo.com',
    meaning: 'iframe hosts to keep',
  }),
  ...option('headingIdPrefix', pipelineRules.headingIdPrefix, { default: "`''`", meaning: 'prefix for generated heading ids' }),
  ...option('downloadImages', z.union([
    z.boolean(),
    z.strictObject({
      dir: downloadRules.dir.optional(),
      // The loader's own rule on top of the pipeline's: the directory is served from the site's root.
      publicPath: downloadRules.publicPath.regex(/^\//, { error: 'must be a URL path starting with "/"' }).optional(),
      maxBytes: downloadRules.maxBytes,
      timeoutMs: downloadRules.timeoutMs,
    }),
  ], { error: 'must be true, false or { dir, publicPath } (e.g. { dir: "public/images/articles", publicPath: "/images/articles/" })' }).optional(), {
    default: '`false` (offline: always on)',
    meaning: '`true` stores images in `public/_articles/`, served at `/_articles/`; or `{ dir, publicPath }`. Offline it is always on: the embedded emulator is gone after the build',
  }),
  ...option('optimizeImages', z.boolean({ error: 'must be true or false' }).default(true), {
    default: '`true`',
    meaning: 'downloaded images go through astro:assets: resized WebP with `width`/`height` and a `srcset` (see docs/builds.md); `false` serves the downloaded files as they are',
  }),
  ...option('internalLinks', z.strictObject({
    domainId: serviceLinkRules.domainId,
    siteUrl: serviceLinkRules.siteUrl,
    onError: serviceLinkRules.onError.unwrap().default('warn'),
    domainIds: z.record(z.string(), serviceLinkRules.domainId, { error: 'must map a locale to its domain id, e.g. { de: "example-de" }' }).optional(),
  }, { error: 'must be { domainId, siteUrl, onError?, domainIds? }' }).optional(), {
    default: 'not used',
    meaning: "`{ domainId, siteUrl, onError: 'warn' }`: the service's internal links, 1 credit per article, answers kept in `articles.cache/links/` so a rebuild never pays again; `domainIds: { de: '…' }` gives a locale its own domain (docs/languages.md)",
  }),
};

const runOptions = {
  ...option('budget', wholeAtLeast(0, 'it is how many new (paid) articles one run may create, e.g. budget: 25').default(DEFAULT_BUDGET), {
    default: `the manifest's \`budget.perRun\`, else \`${DEFAULT_BUDGET}\``,
    meaning: "most new (paid) articles per run; more fails before any is created (the manifest's `budget.perMonth` holds as well: docs/manifest.md)",
  }),
  ...option('frozen', z.boolean({ error: 'must be true or false' }).optional(), {
    default: "on when `CI` is set (not `''`, `0` or `false`)",
    meaning: 'never create; fail and list what would be created',
  }),
  ...option('onFailure', z.enum(['skip', 'fail'], { error: 'must be "skip" (build without the article) or "fail" (fail the build)' }).default('skip'), {
    default: "`'skip'`",
    meaning: "`'skip'` builds without an article that can't be served and logs it (an outage never breaks a deploy); `'fail'` fails the build listing them",
  }),
  ...option('retryUnknown', slugSelection.optional(), {
    default: 'none',
    meaning: '`true` or slugs: create `unknown` entries again (paid again unless idempotent); adopt the id from the queue page instead when you can',
  }),
  ...option('retryFailed', slugSelection.optional(), {
    default: 'none',
    meaning: '`true` or slugs: create failed articles again (each a new, paid article); remove it after the build',
  }),
  ...option('timeoutMs', wholeAtLeast(1, 'it is the longest a build waits for articles, in milliseconds').default(DEFAULT_RUN_TIMEOUT_MS), {
    default: `\`${DEFAULT_RUN_TIMEOUT_MS}\``,
    meaning: 'longest a build waits for articles being written',
  }),
  ...option('pollIntervalMs', wholeAtLeast(1, 'it is the first and shortest gap between two polls of an article, in milliseconds').optional(), {
    default: `\`${DEFAULT_POLL_TIMING.initialMs}\` first, \`${DEFAULT_POLL_TIMING.minMs}\` shortest; offline \`${OFFLINE_POLL_MS}\``,
    meaning: `first and shortest gap between two polls of an article being written, as \`sync --poll-interval\`; later gaps follow its progress, up to ${DEFAULT_POLL_TIMING.maxMs / 1000} s`,
  }),
  ...option('concurrency', wholeAtLeast(1, 'it is how many creates run at once, e.g. 4').default(DEFAULT_CREATE_CONCURRENCY), {
    default: `\`${DEFAULT_CREATE_CONCURRENCY}\``,
    meaning: 'creates in flight at once',
  }),
  ...option('debounceMs', wholeAtLeast(0, 'it is how long the dev server waits after the last manifest edit, in milliseconds').default(DEFAULT_DEBOUNCE_MS), {
    default: `\`${DEFAULT_DEBOUNCE_MS}\``,
    meaning: 'dev server: quiet time after the last manifest edit before acting',
  }),
};

/** Every option of `articleLoader()`: the one declaration the type, the checks, the defaults and the README table come from. */
export const loaderOptionsSchema = z.strictObject({ ...sourceOptions, ...contentOptions, ...serviceOptions, ...pageOptions, ...runOptions });

/**
 * The options that shape an entry's HTML (the page options above): the digest's pipeline
 * fingerprint covers each, so changing one renders every article again.
 */
export const OUTPUT_OPTIONS = Object.keys(pageOptions) as (keyof typeof pageOptions)[];

/** Everything `articleLoader()` accepts. Every option is optional; the defaults build a site offline. The README's option table documents each. */
export type ArticleLoaderOptions = z.input<typeof loaderOptionsSchema>;

/** The README's option table rows, from the declarations (a test keeps the README equal to it). */
export function loaderOptionsTable(): string {
  return documented.table(['option', 'default', 'meaning']);
}
