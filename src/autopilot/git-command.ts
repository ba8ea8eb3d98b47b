// Running the `git` binary for the unattended run: one call, its exit code and its words, never a prompt, never a credential in a message.
import { execFile } from 'node:child_process';
import { ArticleLoaderError } from '../errors.js';

/**
 * - `not_a_git_repository`, `shallow_clone`, `detached_head`, `run_paths_uncommitted`, `run_path_outside_repository`:
 *   the run cannot start where it was started (exit 2; nothing written or spent).
 * - `branch_conflict`: the run's branch and its base (or the remote's branch) changed the same lines; the merge was aborted.
 * - `branch_diverged`: a local branch of that name holds commits the remote does not have (perhaps paid ids): never reset.
 * - `push_failed`: the branch could not be pushed (after one fetch and merge when it was rejected).
 * - `git_failed`: git failed for another reason (the remote unreachable, a lock file of git's own).
 */
export type RunBranchErrorCode =
  | 'not_a_git_repository'
  | 'shallow_clone'
  | 'detached_head'
  | 'run_paths_uncommitted'
  | 'run_path_outside_repository'
  | 'branch_conflict'
  | 'branch_diverged'
  | 'push_failed'
  | 'git_failed';

/** The codes that mean "started in the wrong place": the CLI maps them to exit 2. */
export const RUN_BRANCH_USAGE_CODES: readonly RunBranchErrorCode[] = [
  'not_a_git_repository',
  'shallow_clone',
  'detached_head',
  'run_paths_uncommitted',
  'run_path_outside_repository',
];

export class RunBranchError extends ArticleLoaderError {
  declare readonly code: RunBranchErrorCode;

  constructor(code: RunBranchErrorCode, message: string) {
    super(code, message);
  }
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A remote's address may carry a token (`https://x-access-token:…@github.com/…`): never shown. */
export function withoutCredentials(text: string): string {
  return text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@');
}

/**
 * Runs `git args` in `cwd`. Git's words are kept in English (LC_ALL=C) so a rejected push can be told
 * from an unreachable remote, and git never waits for a password a job cannot type (GIT_TERMINAL_PROMPT=0).
 */
export function runGit(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<GitResult> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'git',
      args,
      { cwd, env: { ...env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' }, maxBuffer: 1024 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : (error as { code?: unknown }).code;
        if (typeof code !== 'number') {
          reject(new RunBranchError('git_failed', `could not run git (${error?.message ?? 'no exit code'}): autopilot needs git on the PATH, or --no-git.`));
          return;
        }
        resolvePromise({ code, stdout, stderr: withoutCredentials(stderr) });
      },
    );
  });
}

/** Runs git and returns its trimmed stdout; any failure is a `git_failed` error quoting git's own message. */
export async function gitOutput(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runGit(args, cwd, env);
  if (result.code !== 0) throw gitFailure(args, result);
  return result.stdout.trim();
}

export function gitFailure(args: readonly string[], result: GitResult): RunBranchError {
  const said = result.stderr.trim() || result.stdout.trim() || `exit code ${result.code}`;
  return new RunBranchError('git_failed', `git ${args[0] ?? ''} failed: ${withoutCredentials(said)}`);
}
