// The loader's options resolved: every problem in one message that names the option and the fix, the service chosen, the defaults applied.
import { z } from 'zod';
import { ArticleLoaderError } from '../errors.js';
import { suggestName } from '../manifest/suggestion.js';
import type { EmulatorTiming } from '../service/embedded-emulator.js';
import { chooseService, ServiceConfigError, type ServiceSettings } from '../service/service-settings.js';
import { frozenByDefault } from '../sync/run-rules.js';
import { checkQualityOptions } from '../quality/quality-options.js';
import { forAstro } from './astro-error.js';
import { DEFAULT_IMAGE_DIR, DEFAULT_IMAGE_PUBLIC_PATH, DEFAULT_MANIFEST, loaderOptionsSchema } from './option-declarations.js';

export { API_KEY_ENV, API_URL_ENV } from '../service/service-settings.js';
export type { EmulatorTiming, ServiceSettings };

type ParsedOptions = z.output<typeof loaderOptionsSchema>;

/** The options after validation and defaults (the URL default needs Astro's config and is applied at load time). */
export type ResolvedLoaderOptions = Omit<ParsedOptions, 'manifest' | 'articles' | 'defaults' | 'apiKey' | 'baseUrl' | 'emulator' | 'downloadImages' | 'frozen' | 'idempotentCreates' | 'retryUnknown' | 'retryFailed'> & {
  manifest: { kind: 'file'; path: string } | { kind: 'inline'; articles: unknown[]; defaults: Record<string, unknown> | undefined };
  service: ServiceSettings;
  downloadImages: { dir: string; publicPath: string; maxBytes?: number; timeoutMs?: number } | undefined;
  frozen: boolean;
  idempotentCreates: boolean;
  retryUnknown: true | string[] | undefined;
  retryFailed: true | string[] | undefined;
  /** The `budget` option was given: it wins over the manifest's `budget.perRun` (see `runBudget` in pass-context.ts). */
  budgetGiven: boolean;
};

/** A mistake in the options given to `articleLoader()`; the message names the option and says how to fix it. */
export class LoaderOptionError extends ArticleLoaderError {
  constructor(message: string) {
    super('invalid_loader_options', message);
    forAstro(this);
  }
}

function nestedNames(name: string): string[] {
  const schema = (loaderOptionsSchema.shape as Record<string, z.ZodType>)[name];
  const inner = schema instanceof z.ZodOptional || schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema;
  if (inner instanceof z.ZodObject) return Object.keys(inner.shape);
  if (inner instanceof z.ZodUnion) for (const member of inner.options as z.ZodType[]) if (member instanceof z.ZodObject) return Object.keys(member.shape);
  return [];
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : index === 0 ? String(key) : `.${String(key)}`)).join('');
}

function unknownKeyMessage(key: string, parent: string): string {
  const name = parent === '' ? `\`${key}\`` : `\`${parent}.${key}\``;
  const names = parent === '' ? Object.keys(loaderOptionsSchema.shape) : nestedNames(parent);
  const guess = suggestName(key, names);
  const hint = guess !== undefined ? `did you mean \`${guess}\`? ` : '';
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
function resolveService(options: ParsedOptions, env: Readonly<Record<string, string | undefined>>): ServiceSettings {
  try {
    const { timing = 'fast', writer, flaws } = options.emulator ?? {};
    return chooseService({ apiKey: options.apiKey, baseUrl: options.baseUrl, offlineWhenUnset: true, timing, writer, flaws, audience: 'loader' }, env);
  } catch (error) {
    if (error instanceof ServiceConfigError) throw new LoaderOptionError(error.message);
    throw error;
  }
}

function parseOptions(input: unknown): ParsedOptions {
  if (input !== undefined && (input === null || typeof input !== 'object' || Array.isArray(input))) {
    fail(['articleLoader() takes one options object, e.g. articleLoader({ manifest: "./articles.yaml" })']);
  }
  const quality = (input as { quality?: unknown } | undefined)?.quality;
  if (quality !== undefined) {
    // The quality room's messages name the code or severity meant (did-you-mean); zod's alone would not.
    const checked = checkQualityOptions(quality);
    if (!checked.ok) fail(checked.problems.map((problem) => `\`quality${problem.option === '' ? '' : `.${problem.option}`}\`: ${problem.message}`));
  }
  const parsed = loaderOptionsSchema.safeParse(input ?? {});
  if (!parsed.success) fail(problemsOf(parsed.error));
  const options = parsed.data;
  const problems: string[] = [];
  if (options.articles !== undefined && options.manifest !== undefined) problems.push('`manifest` and `articles` are both set; use a manifest file or inline articles, not both');
  if (options.defaults !== undefined && options.articles === undefined) problems.push('`defaults` is for inline `articles` only; put defaults in the manifest file under `defaults:`');
  if (problems.length > 0) fail(problems);
  return options;
}

/**
 * Offline, the embedded emulator serves the images and is gone after the build: they are always
 * downloaded into the site, as `downloadImages: true` does, so a page never points at it.
 */
export const OFFLINE_DOWNLOADS: NonNullable<ResolvedLoaderOptions['downloadImages']> = { dir: DEFAULT_IMAGE_DIR, publicPath: DEFAULT_IMAGE_PUBLIC_PATH };

function downloadsOf(download: ParsedOptions['downloadImages']): ResolvedLoaderOptions['downloadImages'] {
  if (download === undefined || download === false) return undefined;
  const given = download === true ? {} : download;
  return {
    dir: given.dir ?? DEFAULT_IMAGE_DIR,
    publicPath: given.publicPath ?? DEFAULT_IMAGE_PUBLIC_PATH,
    ...(given.maxBytes === undefined ? {} : { maxBytes: given.maxBytes }),
    ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
  };
}

const selection = (value: boolean | string[] | undefined): true | string[] | undefined => (value === true ? true : Array.isArray(value) ? value : undefined);

/** Validate the options (throws LoaderOptionError listing every problem) and apply the defaults. */
export function resolveLoaderOptions(input: unknown, env: Readonly<Record<string, string | undefined>> = process.env): ResolvedLoaderOptions {
  const options = parseOptions(input);
  const service = resolveService(options, env);
  const { manifest, articles, defaults, apiKey: _key, baseUrl: _url, emulator: _emulator, downloadImages, frozen, idempotentCreates, retryUnknown, retryFailed, ...rest } = options;
  return {
    ...rest,
    manifest: articles === undefined ? { kind: 'file', path: manifest ?? DEFAULT_MANIFEST } : { kind: 'inline', articles, defaults },
    service,
    downloadImages: downloadsOf(downloadImages),
    frozen: frozen ?? frozenByDefault(env),
    // The embedded emulator honours Idempotency-Key; the real service's spec does not show it.
    idempotentCreates: idempotentCreates ?? service.mode === 'offline',
    retryUnknown: selection(retryUnknown),
    retryFailed: selection(retryFailed),
    budgetGiven: (input as { budget?: unknown } | undefined)?.budget !== undefined,
  };
}
