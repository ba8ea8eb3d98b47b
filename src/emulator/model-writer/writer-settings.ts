// The model writer's settings: where the OpenAI-compatible server is, which model, how many at once; from options or the environment.
import { EmulatorError } from '../errors.js';
import { envValue } from '../../lang/env-value.js';
import { urlForMessage } from '../../lang/url-for-message.js';

/** The environment variables the emulator (command and embedded) reads its writer from. */
export const WRITER_URL_ENV = 'ARTICLES_WRITER_URL';
export const WRITER_MODEL_ENV = 'ARTICLES_WRITER_MODEL';
/** The key is read from here only: never a flag or an option that could land in shell history or a config file. */
export const WRITER_KEY_ENV = 'ARTICLES_WRITER_KEY';

export const DEFAULT_WRITER_CONCURRENCY = 1;
export const DEFAULT_WRITER_TIMEOUT_MS = 300_000;
export const DEFAULT_WRITER_RETRIES = 2;

export interface ModelWriterOptions {
  /** Base URL of an OpenAI-compatible server, e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is appended. */
  url: string;
  /** The `model` sent with every request. Default `'default'` (llama.cpp's server serves whatever it loaded). */
  model?: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never logged, never in an error or a status record. Default: none. */
  apiKey?: string;
  /** Articles written at once (each writes its parts one after another). Default 1: a small GPU serves one well. */
  concurrency?: number;
  /** Longest wait for the server's next bytes (first token, next chunk, or a whole unstreamed answer), in ms. Default 300000. */
  timeoutMs?: number;
  /** Retries of a refused connection or a 5xx, with backoff. Default 2. */
  retries?: number;
  /** Ask for a streamed answer (SSE); a server that ignores it and answers JSON is read as JSON. Default true. */
  stream?: boolean;
}

export type ResolvedWriterOptions = Required<Omit<ModelWriterOptions, 'apiKey'>> & { apiKey: string | undefined };

function fail(message: string): never {
  throw new EmulatorError('emulator_invalid_options', message);
}

function isWhole(value: unknown, min: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

/** Check the writer options (messages never echo the key) and apply the defaults. */
export function resolveWriterOptions(options: ModelWriterOptions): ResolvedWriterOptions {
  const { url } = options;
  if (typeof url !== 'string' || !/^https?:\/\/[^/\s]+/.test(url) || !URL.canParse(url)) {
    fail(`Emulator option writer.url must be the absolute http(s) base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (got ${JSON.stringify(typeof url === 'string' ? urlForMessage(url) : url)}).`);
  }
  if (options.model !== undefined && (typeof options.model !== 'string' || options.model.trim() === '')) fail('Emulator option writer.model must be a model name, e.g. "qwen2.5-7b-instruct".');
  if (options.concurrency !== undefined && !isWhole(options.concurrency, 1)) fail(`Emulator option writer.concurrency is ${String(options.concurrency)}; use a whole number ≥ 1.`);
  if (options.timeoutMs !== undefined && !isWhole(options.timeoutMs, 1)) fail(`Emulator option writer.timeoutMs is ${String(options.timeoutMs)}; use whole milliseconds ≥ 1.`);
  if (options.retries !== undefined && !isWhole(options.retries, 0)) fail(`Emulator option writer.retries is ${String(options.retries)}; use a whole number ≥ 0.`);
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string') fail(`Emulator option writer.apiKey must be a string; set it through ${WRITER_KEY_ENV}.`);
  const apiKey = options.apiKey?.trim();
  return {
    url: url.replace(/\/+$/, ''),
    model: options.model?.trim() ?? 'default',
    apiKey: apiKey === undefined || apiKey === '' ? undefined : apiKey,
    concurrency: options.concurrency ?? DEFAULT_WRITER_CONCURRENCY,
    timeoutMs: options.timeoutMs ?? DEFAULT_WRITER_TIMEOUT_MS,
    retries: options.retries ?? DEFAULT_WRITER_RETRIES,
    stream: options.stream ?? true,
  };
}

/** The writer the environment names (`ARTICLES_WRITER_URL`, `_MODEL`, `_KEY`), or undefined without a URL. */
export function writerFromEnv(env: Readonly<Record<string, string | undefined>>): ModelWriterOptions | undefined {
  const url = envValue(env, WRITER_URL_ENV);
  if (url === undefined) return undefined;
  return withEnvKey({ url, ...(envValue(env, WRITER_MODEL_ENV) === undefined ? {} : { model: envValue(env, WRITER_MODEL_ENV) as string }) }, env);
}

/** The options with the key from `ARTICLES_WRITER_KEY` when they carry none. */
export function withEnvKey(options: ModelWriterOptions, env: Readonly<Record<string, string | undefined>>): ModelWriterOptions {
  const key = envValue(env, WRITER_KEY_ENV);
  return options.apiKey !== undefined || key === undefined ? options : { ...options, apiKey: key };
}
