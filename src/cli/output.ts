// Where a command's words go: stdout for results, stderr for progress and errors, colour only on a terminal, never a secret.

/** Counts in a command's words, as the loader's log lines write them too. */
export { formatCount, plural } from '../lang/count-text.js';

/** The part of a stream the commands use (process.stdout / process.stderr fit). */
export interface OutputStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
}

/** What a command runs against: injectable, so a command needs no global process state. */
export interface CommandIo {
  stdout: OutputStream;
  stderr: OutputStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIo(): CommandIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** SGR styles; each is the identity when colour is off, so callers never branch on it. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

function sgr(enabled: boolean, open: number, close: number): (text: string) => string {
  return enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
}

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: sgr(enabled, 1, 22),
    dim: sgr(enabled, 2, 22),
    red: sgr(enabled, 31, 39),
    green: sgr(enabled, 32, 39),
    yellow: sgr(enabled, 33, 39),
    cyan: sgr(enabled, 36, 39),
  };
}

/** Whether the environment variable is set to something that means "on" (`CI=true`, `CI=1`; not `CI=false`). */
export function envFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name];
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/**
 * Colour follows the conventions of https://no-color.org and FORCE_COLOR: off with `--no-color`,
 * off when NO_COLOR is set, on when FORCE_COLOR is, otherwise only on a terminal that is not "dumb".
 */
export function colorEnabled(stream: OutputStream, env: NodeJS.ProcessEnv, noColorFlag: boolean): boolean {
  if (noColorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR !== undefined) return envFlag(env, 'FORCE_COLOR');
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** Secrets shorter than this are not worth mangling every message for (and would match everywhere). */
const MIN_SECRET_LENGTH = 6;

export class Output {
  readonly io: CommandIo;
  /** `--json`: stdout carries exactly one JSON document; nothing else is printed there. */
  readonly json: boolean;
  /** Styles for text written to stdout / stderr. */
  readonly style: Style;
  readonly errStyle: Style;
  readonly #secrets: string[];

  constructor(io: CommandIo, options: { json: boolean; noColor: boolean }) {
    this.io = io;
    this.json = options.json;
    this.style = makeStyle(!options.json && colorEnabled(io.stdout, io.env, options.noColor));
    this.errStyle = makeStyle(!options.json && colorEnabled(io.stderr, io.env, options.noColor));
    // Belt and braces: no code path prints the key, but a message quoting the environment must not either.
    this.#secrets = [io.env.ARTICLES_API_KEY].filter((s): s is string => s !== undefined && s.trim().length >= MIN_SECRET_LENGTH).map((s) => s.trim());
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.#secrets) result = result.split(secret).join('[redacted]');
    return result;
  }

  /** A line of results on stdout (ignored in JSON mode, where the document is the result). */
  out(line = ''): void {
    if (!this.json) this.io.stdout.write(`${this.redact(line)}\n`);
  }

  /** A line of progress, a warning or an error on stderr. */
  err(line = ''): void {
    this.io.stderr.write(`${this.redact(line)}\n`);
  }

  /** Raw text to stderr (the live display draws with it). */
  errRaw(text: string): void {
    this.io.stderr.write(this.redact(text));
  }

  /** The JSON document of `--json` mode, on stdout. */
  document(value: unknown): void {
    this.io.stdout.write(`${this.redact(JSON.stringify(value, null, 2))}\n`);
  }
}

/** 65_000 → "1m 05s"; 4_200 → "4.2s". */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
