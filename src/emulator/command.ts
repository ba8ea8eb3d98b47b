// The `astro-article-loader emulator` command: run the emulator in the foreground until Ctrl-C.
import { parseArgs } from 'node:util';
import { ArticleLoaderError } from '../errors.js';
import { urlForMessage } from '../lang/url-for-message.js';
import { DEVELOPMENT_API_KEY } from './accounts.js';
import { accountsFromEnv, loadEmulatorConfig } from './config-file.js';
import { DEFAULT_WRITER_CONCURRENCY, withEnvKey, WRITER_KEY_ENV, WRITER_URL_ENV, writerFromEnv, type ModelWriterOptions } from './model-writer/index.js';
import type { EmulatorOptions } from './options.js';
import type { RunningEmulator } from './running-emulator.js';
import { startEmulator } from './server.js';
import { TIMING_PRESETS, type TimingPreset } from './timing.js';

export const EMULATOR_COMMAND_SUMMARY = 'Run a local emulator of the article service (offline, free, for development and CI).';

export const EMULATOR_COMMAND_HELP = `Usage: astro-article-loader emulator [options]

${EMULATOR_COMMAND_SUMMARY}

Options:
  --port <n>            Port to listen on (default 4010; 0 picks a free port)
  --host <address>      Interface to listen on (default 127.0.0.1, loopback only)
  --speed <preset>      realtime | fast | instant (default fast)
                          realtime: tens of seconds per article, for demos
                          fast:     1-3 s per article
                          instant:  near zero, for tests
  --seed <n>            Seed for faults, timings and HTML quirks (default 1)
  --config <file>       JSON config: accounts (plan, words, credits), domains,
                        integrations, faults, flaws (articles written with
                        planted flaws), rateLimit, ... (docs/emulator.md)
  --state <file>        Keep articles, ledger and idempotency keys in this JSON
                        file; unfinished articles resume on the next start
  --workers <n>         Articles written at once (default: unlimited)
  --image-ttl <ms>      Image URLs expire this long after an article finishes
  --rate-limit <n>      Requests per second per key (default 100; 0 turns it off)
  --log-requests        Print one line per HTTP request (never keys)
  --writer-url <url>    Write real articles with a language model behind an
                        OpenAI-compatible server (llama.cpp, vLLM, Ollama), e.g.
                        http://127.0.0.1:8080/v1 (default: placeholder text)
  --writer-model <name> The model to ask for (default "default")
  --writer-concurrency <n>
                        Articles the model writes at once; more wait queued
                        (default 1)
  --writer-timeout <ms> Longest wait for the model's next bytes (default 300000)
  -h, --help            Show this help

API keys: from --config, else from EMULATOR_API_KEYS (comma-separated), else the
public development key "${DEVELOPMENT_API_KEY}" (not a secret). Keys are never printed.

Model writer: --writer-url / --writer-model, else ARTICLES_WRITER_URL /
ARTICLES_WRITER_MODEL; a key for the model's server only from ARTICLES_WRITER_KEY
(never a flag). Articles bill the words the model wrote; a failed call fails the article.

Examples:
  npx astro-article-loader emulator
  npx astro-article-loader emulator --port 4010 --speed realtime
  EMULATOR_API_KEYS=my-ci-key npx astro-article-loader emulator --speed instant
  npx astro-article-loader emulator --config emulator.json --state .emulator-state.json
  npx astro-article-loader emulator --writer-url http://127.0.0.1:8080/v1 --writer-model qwen2.5-7b-instruct

Then point the loader at it:
  ARTICLES_API_URL=http://127.0.0.1:4010 ARTICLES_API_KEY=${DEVELOPMENT_API_KEY} npm run build

Exit codes: 0 stopped by Ctrl-C/SIGTERM, 1 could not start, 2 bad arguments or config.`;

export interface CommandIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: CommandIo = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`), env: process.env };

function wholeNumber(value: string, flag: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`${flag} must be a whole number ≥ ${min}, got "${value}".`);
  return Number(value);
}

class UsageError extends Error {}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  speed: { type: 'string' },
  seed: { type: 'string' },
  config: { type: 'string' },
  state: { type: 'string' },
  workers: { type: 'string' },
  'image-ttl': { type: 'string' },
  'rate-limit': { type: 'string' },
  'log-requests': { type: 'boolean' },
  'writer-url': { type: 'string' },
  'writer-model': { type: 'string' },
  'writer-concurrency': { type: 'string' },
  'writer-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: typeof FLAGS }>>['values'];

/** The model writer from the flags, else the config file, else the environment; its key from the environment only. */
function writerOf(options: EmulatorOptions, values: Flags, env: NodeJS.ProcessEnv): ModelWriterOptions | undefined {
  const fromEnv = writerFromEnv(env);
  const url = values['writer-url'] ?? options.writer?.url ?? fromEnv?.url;
  if (url === undefined) {
    if (values['writer-model'] !== undefined || values['writer-concurrency'] !== undefined || values['writer-timeout'] !== undefined) {
      throw new UsageError(`--writer-model, --writer-concurrency and --writer-timeout need --writer-url (or ${WRITER_URL_ENV}).`);
    }
    return undefined;
  }
  if (!/^https?:\/\/[^/\s]+/.test(url) || !URL.canParse(url)) throw new UsageError(`--writer-url must be the http(s) base URL of an OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (got "${urlForMessage(url)}").`);
  const writer: ModelWriterOptions = { ...options.writer, url };
  const model = values['writer-model'] ?? options.writer?.model ?? fromEnv?.model;
  if (model !== undefined) writer.model = model;
  if (values['writer-concurrency'] !== undefined) writer.concurrency = wholeNumber(values['writer-concurrency'], '--writer-concurrency', 1);
  if (values['writer-timeout'] !== undefined) writer.timeoutMs = wholeNumber(values['writer-timeout'], '--writer-timeout', 1);
  return withEnvKey(writer, env);
}

/** Lay the command-line flags over the options from the config file. */
function applyFlags(options: EmulatorOptions, values: Flags): void {
  options.port = values.port === undefined ? (options.port ?? 4010) : wholeNumber(values.port, '--port', 0);
  if (options.port > 65535) throw new UsageError('--port must be at most 65535.');
  if (values.host !== undefined) options.host = values.host;
  if (values.speed !== undefined) {
    if (!(TIMING_PRESETS as readonly string[]).includes(values.speed)) throw new UsageError(`--speed must be one of ${TIMING_PRESETS.join(', ')}, got "${values.speed}".`);
    options.timing = values.speed as TimingPreset;
  }
  if (values.seed !== undefined) options.seed = /^-?\d+$/.test(values.seed) ? Number(values.seed) : values.seed;
  if (values.state !== undefined) options.stateFile = values.state;
  if (values.workers !== undefined) options.workers = wholeNumber(values.workers, '--workers', 1);
  if (values['image-ttl'] !== undefined) options.imageUrlTtlMs = wholeNumber(values['image-ttl'], '--image-ttl', 0);
  if (values['rate-limit'] !== undefined) {
    const rate = wholeNumber(values['rate-limit'], '--rate-limit', 0);
    options.rateLimit = rate === 0 ? false : { requestsPerSecond: rate };
  }
}

/** The emulator options the arguments ask for, or undefined after printing the help. Throws on bad arguments. */
async function optionsFromArgs(args: string[], io: CommandIo): Promise<{ options: EmulatorOptions; logRequests: boolean } | undefined> {
  const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: FLAGS });
  if (values.help === true) {
    io.out(EMULATOR_COMMAND_HELP);
    return undefined;
  }
  const options: EmulatorOptions = values.config === undefined ? {} : await loadEmulatorConfig(values.config, io.env);
  if (options.accounts === undefined) {
    const fromEnv = accountsFromEnv(io.env.EMULATOR_API_KEYS);
    if (fromEnv !== undefined) options.accounts = fromEnv;
  }
  applyFlags(options, values);
  const writer = writerOf(options, values, io.env);
  if (writer === undefined) delete options.writer;
  else options.writer = writer;
  return { options, logRequests: values['log-requests'] === true };
}

/** The options to start with, or the exit code: 0 after --help, 2 for bad arguments or config. */
async function parseCommand(args: string[], io: CommandIo): Promise<EmulatorOptions | number> {
  let parsed: { options: EmulatorOptions; logRequests: boolean } | undefined;
  try {
    parsed = await optionsFromArgs(args, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof ArticleLoaderError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`astro-article-loader emulator: ${(error as Error).message}`);
      io.err('Run "astro-article-loader emulator --help" for usage.');
      return 2;
    }
    throw error;
  }
  if (parsed === undefined) return 0;
  if (parsed.logRequests) parsed.options.onRequest = (line) => io.out(line);
  return parsed.options;
}

/** The started emulator, or the exit code after saying why it could not start. */
async function start(options: EmulatorOptions, io: CommandIo): Promise<RunningEmulator | number> {
  try {
    return await startEmulator(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') io.err(`astro-article-loader emulator: port ${options.port} is in use; pick another with --port (0 picks a free one).`);
    else if (error instanceof ArticleLoaderError) {
      io.err(`astro-article-loader emulator: ${error.message}`);
      return 2;
    } else io.err(`astro-article-loader emulator: could not start: ${(error as Error).message}`);
    return 1;
  }
}

/** The startup banner, written at once so a reader of the output never sees half of it. */
function printStartup(url: string, options: EmulatorOptions, io: CommandIo): void {
  const speed = typeof options.timing === 'string' ? options.timing : options.timing === undefined ? 'fast' : 'custom';
  const lines = [`Article service emulator listening on ${url} (speed: ${speed}, seed: ${String(options.seed ?? 1)})`];
  const accountCount = options.accounts?.length ?? 0;
  if (accountCount === 0) {
    lines.push(`API key: the development key "${DEVELOPMENT_API_KEY}" (public, not a secret). Set EMULATOR_API_KEYS or use --config for your own keys.`);
  } else {
    lines.push(`API keys: ${accountCount} configured (not shown).`);
  }
  lines.push(`Try: curl -H "Authorization: Bearer <key>" -H "Content-Type: application/json" -d '{"targetKeyword":"sourdough"}' ${url}/api/articles/`);
  if (options.stateFile !== undefined) lines.push(`State file: ${options.stateFile}`);
  const writer = options.writer;
  if (writer !== undefined) {
    const key = writer.apiKey === undefined ? 'no key' : `key from ${WRITER_KEY_ENV} (not shown)`;
    lines.push(`Writer: ${urlForMessage(writer.url)}, model "${writer.model ?? 'default'}", ${writer.concurrency ?? DEFAULT_WRITER_CONCURRENCY} at once, ${key}. Articles are written by the model and bill the words it wrote.`);
  }
  lines.push('Press Ctrl-C to stop.');
  io.out(lines.join('\n'));
}

function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const onSignal = (): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** Run the command; resolves with the exit code once the emulator stopped (SIGINT/SIGTERM). */
export async function runEmulatorCommand(args: string[], io: CommandIo = defaultIo): Promise<number> {
  const options = await parseCommand(args, io);
  if (typeof options === 'number') return options;
  const emulator = await start(options, io);
  if (typeof emulator === 'number') return emulator;
  printStartup(emulator.url, options, io);
  await untilSignal();
  io.out('Stopping the emulator…');
  await emulator.stop();
  io.out('Emulator stopped.');
  return 0;
}
