// How a command's error reaches the user: our errors as their message (no stack), anything else as a bug to report.
import { RUN_BRANCH_USAGE_CODES } from '../autopilot/git-command.js';
import { ArticleLoaderError } from '../errors.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { envFlag, type Output } from './output.js';

/** Codes that mean "articles would have to be created and were not". */
const WOULD_CREATE_CODES = new Set(['frozen', 'over_budget', 'over_monthly_cap']);
/** Codes that mean "you called it wrongly or did not configure it". */
const USAGE_CODES = new Set<string>(['usage', 'manifest_not_found', 'manifest_ambiguous', 'service_not_configured', 'invalid_manifest', 'invalid_now', ...RUN_BRANCH_USAGE_CODES]);

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof ArticleLoaderError) {
    if (USAGE_CODES.has(error.code)) return EXIT_CODES.usage;
    if (WOULD_CREATE_CODES.has(error.code)) return EXIT_CODES.wouldCreate;
    if (error.code === 'aborted') return EXIT_CODES.interrupted;
  }
  return EXIT_CODES.failure;
}

/** A Node.js system error (ENOENT, EACCES, EISDIR, …), which carries `code` and `syscall`. */
function systemErrorOf(error: unknown): { code: string; path?: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code) || typeof syscall !== 'string') return undefined;
  return { code, ...(typeof path === 'string' ? { path } : {}) };
}

/** The `error` member of a JSON document: code, message and the error's own details (never its cause). */
export function errorJson(error: unknown): Record<string, unknown> {
  if (error instanceof ArticleLoaderError) {
    const details: Record<string, unknown> = { code: error.code, message: error.message };
    for (const key of ['problems', 'slugs', 'count', 'budget', 'fields', 'status', 'file'] as const) {
      const value = (error as unknown as Record<string, unknown>)[key];
      if (value !== undefined) details[key] = value;
    }
    return details;
  }
  const system = systemErrorOf(error);
  if (system !== undefined) return { code: system.code, message: (error as Error).message };
  return { code: 'unexpected', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Prints `error` (as JSON in `--json` mode) and returns the exit code. ArticleLoaderError messages
 * already say what happened and what to do; anything else is a bug, so it says how to report it.
 */
export function reportError(output: Output, command: string, error: unknown, options: { verbose: boolean; exitCode?: ExitCode }): ExitCode {
  const exitCode = options.exitCode ?? exitCodeFor(error);
  const verbose = options.verbose || envFlag(output.io.env, 'DEBUG');
  if (output.json) {
    output.document({ schemaVersion: 1, command, exitCode, error: errorJson(error) });
  }
  const style = output.errStyle;
  const prefix = style.red(style.bold(`astro-article-loader ${command}:`));
  if (error instanceof ArticleLoaderError) {
    if (!output.json) output.err(`${prefix} ${error.message}`);
    if (exitCode === EXIT_CODES.usage && error.code === 'usage' && !output.json) output.err(`Run "astro-article-loader ${command} --help" for usage.`);
    if (verbose && error.stack !== undefined) output.err(style.dim(error.stack));
    return exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  const system = systemErrorOf(error);
  if (system !== undefined && !output.json) {
    // The file system or the network said no: the user can fix that; it is not our bug.
    output.err(`${prefix} ${message}`);
    output.err(`Check that ${system.path === undefined ? 'the files involved exist and' : `${system.path} is what you expect and`} you may read and write there.`);
    if (verbose && error instanceof Error && error.stack !== undefined) output.err(style.dim(error.stack));
    return exitCode;
  }
  if (!output.json) {
    output.err(`${prefix} unexpected error: ${message}`);
    output.err(
      verbose
        ? style.dim(error instanceof Error && error.stack !== undefined ? error.stack : String(error))
        : 'This is a bug in astro-article-loader. Please report it with the command you ran and the output of the same command with --verbose.',
    );
  } else if (verbose && error instanceof Error && error.stack !== undefined) {
    output.err(error.stack);
  }
  return exitCode;
}
