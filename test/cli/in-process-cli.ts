// Running the command line in this test process: the bin's own `main` (src/cli/main.ts), with the child's folder and environment, for corpora of hundreds of runs.
import path from 'node:path';
import { main } from '../../src/cli/main.js';
import type { OutputStream } from '../../src/cli/output.js';
import { cleanEnv, runCli, type CliResult } from './cli-harness.js';

/**
 * A child process costs about half a second of CPU to start and load the command line; a run that
 * stops at bad input then does a few milliseconds of work. A corpus of bad inputs runs each case
 * here instead, through the same `main` the bin runs, and a sample of it through the bin
 * (`runCli`) to show the two answer alike.
 *
 * One run at a time: a run holds this process's folder and environment, set as the child's would
 * be (`cleanEnv`), and both are put back after it. Output is collected as a piped child's is (not
 * a terminal, so no colour). A throw out of `main` is what a child would print as an uncaught
 * error: its stack on stderr and exit 1.
 */
let queue: Promise<unknown> = Promise.resolve();

export function runCliInProcess(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  const run = queue.then(() => runNow(args, options));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Runs `args` here, then through the bin in a child, against the same folder: a command that changes
 * nothing must answer both ways alike, which the caller asserts (`expect(bin).toEqual(inProcess)`).
 * The one run per command a test file keeps through the bin, so the bin's own path stays covered.
 */
export async function runCliBothWays(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<{ inProcess: CliResult; bin: CliResult }> {
  const inProcess = await runCliInProcess(args, options);
  const bin = await runCli(args, options);
  return { inProcess, bin };
}

function collector(): OutputStream & { text: string } {
  const stream = { text: '', write: (chunk: string) => (stream.text += chunk) };
  return stream;
}

async function runNow(args: string[], options: { cwd: string; env?: Record<string, string | undefined> }): Promise<CliResult> {
  const savedEnv = { ...process.env };
  const savedCwd = process.cwd();
  const savedExitCode = process.exitCode;
  const stdout = collector();
  const stderr = collector();
  replaceEnv(cleanEnv(options.env));
  process.chdir(path.resolve(options.cwd));
  try {
    const code = await main(args, { stdout, stderr, env: process.env, cwd: process.cwd() });
    return { code, signal: null, stdout: stdout.text, stderr: stderr.text };
  } catch (error) {
    stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return { code: 1, signal: null, stdout: stdout.text, stderr: stderr.text };
  } finally {
    process.chdir(savedCwd);
    replaceEnv(savedEnv);
    process.exitCode = savedExitCode;
  }
}

/** Makes process.env hold exactly `env` (process.env itself is kept: modules may hold it). */
function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const name of Object.keys(process.env)) if (!Object.hasOwn(env, name)) delete process.env[name];
  Object.assign(process.env, env);
}
