// Running the real astro-article-loader bin (dist/cli, as published) as a child process, against temp projects and an emulator.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildOutput } from '../child-output.js';
import { buildPackage } from '../loader/astro-site.js';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The bin as the package publishes it. */
export const CLI = path.join(REPO, 'dist', 'cli', 'index.js');

/** A recognizable key: no output of any command may ever contain it. */
export const SECRET_KEY = 'sk-live-CLI-TEST-7f3a9c1e5b2d';

/** Builds dist/ once per change of src/ (the one build every harness shares) and returns the bin's path. */
export async function buildCli(): Promise<string> {
  await buildPackage();
  return CLI;
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
  /** Resolves when stderr or stdout has a complete line matching `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  done: Promise<CliResult>;
}

export function spawnCli(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): CliChild {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: cleanEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
  // Each stream on its own: a line is whole only within its stream.
  const stdout = new ChildOutput();
  const stderr = new ChildOutput();
  // Decoded across chunks: a chunk may end inside a character (→, ✓).
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => stdout.append(chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.append(chunk));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => {
      stdout.end(`the CLI exited (${code ?? signal})`);
      stderr.end(`the CLI exited (${code ?? signal})`);
      resolve({ code, signal, stdout: stdout.text, stderr: stderr.text });
    }),
  );
  return {
    process: child,
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    waitFor: (pattern) =>
      Promise.any([stdout.waitForLine(pattern), stderr.waitForLine(pattern)]).then(
        () => undefined,
        () => Promise.reject(new Error(`the CLI exited (${child.exitCode ?? child.signalCode}) before printing a line matching ${pattern}:\n${stdout.text}\n${stderr.text}`)),
      ),
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
