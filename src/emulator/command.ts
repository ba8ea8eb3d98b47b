// The `astro-article-loader emulator` command: run the emulator in the foreground until Ctrl-C.
import { parseArgs } from 'node:util';
import { ArticleLoaderError } from '../errors.js';
import { DEVELOPMENT_API_KEY } from './accounts.js';
import { accountsFromEnv, loadEmulatorConfig } from './config-file.js';
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
                        integrations, faults, rateLimit, ... (see README)
  --state <file>        Keep articles, ledger and idempotency keys in this JSON
                        file; unfinished articles resume on the next start
  --workers <n>         Articles written at once (default: unlimited)
  --image-ttl <ms>      Image URLs expire this long after an article finishes
  --rate-limit <n>      Requests per second per key (default 100; 0 turns it off)
  --log-requests        Print one line per HTTP request (never keys)
  -h, --help            Show this help

API keys: from --config, else from EMULATOR_API_KEYS (comma-separated), else the
public development key "${DEVELOPMENT_API_KEY}" (not a secret). Keys are never printed.

Examples:
  npx astro-article-loader emulator
  npx astro-article-loader emulator --port 4010 --speed realtime
  EMULATOR_API_KEYS=my-ci-key npx astro-article-loader emulator --speed instant
  npx astro-article-loader emulator --config emulator.json --state .emulator-state.json

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
  help: { type: 'boolean', short: 'h' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; options: typeof FLAGS }>>['values'];

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

function printStartup(url: string, options: EmulatorOptions, io: CommandIo): void {
  const speed = typeof options.timing === 'string' ? options.timing : options.timing === undefined ? 'fast' : 'custom';
  io.out(`Article service emulator listening on ${url} (speed: ${speed}, seed: ${String(options.seed ?? 1)})`);
  const accountCount = options.accounts?.length ?? 0;
  if (accountCount === 0) {
    io.out(`API key: the development key "${DEVELOPMENT_API_KEY}" (public, not a secret). Set EMULATOR_API_KEYS or use --config for your own keys.`);
  } else {
    io.out(`API keys: ${accountCount} configured (not shown).`);
  }
  io.out(`Try: curl -H "Authorization: Bearer <key>" -H "Content-Type: application/json" -d '{"targetKeyword":"sourdough"}' ${url}/api/articles/`);
  if (options.stateFile !== undefined) io.out(`State file: ${options.stateFile}`);
  io.out('Press Ctrl-C to stop.');
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
