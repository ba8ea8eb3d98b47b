// Running the real astro-article-loader bin as a child process: built once from src, against temp projects and an emulator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lock } from 'proper-lockfile';
import { newestMtime } from '../loader/astro-site.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** A private build (not dist/), so parallel test files and other builds never overwrite each other mid-run. */
const OUT_DIR = path.join(REPO, 'test-artifacts', 'cli-dist');
export const CLI = path.join(OUT_DIR, 'cli', 'index.js');
const STAMP = path.join(OUT_DIR, '.built');

/** A recognizable key: no output of any command may ever contain it. */
export const SECRET_KEY = 'sk-live-CLI-TEST-7f3a9c1e5b2d';

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * Compiles src/ with the package's build config (tsc -p tsconfig.build.json) into a private
 * directory, once per change of src/: test files running in parallel take turns on a lock and
 * reuse a build newer than every source file.
 */
export async function buildCli(): Promise<string> {
  await mkdir(OUT_DIR, { recursive: true });
  const release = await lock(OUT_DIR, { realpath: false, stale: 60_000, update: 5_000, retries: { retries: 600, minTimeout: 200, maxTimeout: 500 } });
  try {
    const sources = Math.max(await newestMtime(path.join(REPO, 'src')), (await stat(path.join(REPO, 'tsconfig.build.json'))).mtimeMs);
    const built = await stat(STAMP).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    if (built > sources) return CLI;
    const tsc = path.join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', OUT_DIR], REPO);
    // Other areas' work in progress may have type errors; what matters here is that the CLI was emitted.
    const emitted = await stat(CLI).then(
      (s) => s.mtimeMs >= sources - 1000,
      () => false,
    );
    if (!emitted) throw new Error(`the build did not emit ${CLI}:\n${result.output}`);
    await writeFile(STAMP, String(Date.now()));
    return CLI;
  } finally {
    await release();
  }
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: this process's, minus everything that would change the CLI's behaviour. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['CI', 'ARTICLES_API_KEY', 'ARTICLES_API_URL', 'NO_COLOR', 'FORCE_COLOR', 'DEBUG', 'GITHUB_ACTIONS']) delete env[name];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface CliChild {
  process: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when stderr or stdout has a line matching `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  done: Promise<CliResult>;
}

export function spawnCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): CliChild {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const check = (): void => {
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(stdout) || waiter.pattern.test(stderr)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    check();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    check();
  });
  const done = new Promise<CliResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return {
    process: child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ pattern, resolve });
        check();
        void done.then((result) => reject(new Error(`the CLI exited (${result.code}) before printing ${pattern}:\n${result.stdout}\n${result.stderr}`)));
      }),
    done,
  };
}

export function runCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  return spawnCli(args, options).done;
}

/** The service environment of a child pointed at an emulator. */
export function serviceEnv(url: string): Record<string, string> {
  return { ARTICLES_API_URL: url, ARTICLES_API_KEY: SECRET_KEY };
}

export const EMULATOR_ACCOUNTS = [{ name: 'cli-test', apiKey: SECRET_KEY, plan: 'professional' as const }];

/** A temp project directory with `files` written into it; `cleanup` removes it. */
export async function tempProject(files: Record<string, string>): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aal-cli-'));
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A YAML manifest of bare keywords, with optional defaults. */
export function manifestYaml(keywords: readonly string[], defaults: Record<string, string> = {}): string {
  const lines: string[] = [];
  if (Object.keys(defaults).length > 0) {
    lines.push('defaults:');
    for (const [key, value] of Object.entries(defaults)) lines.push(`  ${key}: ${value}`);
  }
  lines.push('articles:', ...keywords.map((keyword) => `  - ${keyword}`));
  return `${lines.join('\n')}\n`;
}

/** Asserts the key appears in no output (a thrown message names the stream, never repeats the key). */
export function expectNoSecret(result: Pick<CliResult, 'stdout' | 'stderr'>): void {
  for (const [name, text] of Object.entries({ stdout: result.stdout, stderr: result.stderr })) {
    if (text.includes(SECRET_KEY)) throw new Error(`the API key appeared in ${name}`);
  }
}
