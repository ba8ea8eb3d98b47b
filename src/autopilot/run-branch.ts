// The unattended run's branch: opened from the remote's pull-request branch (or the base), and each checkpoint committed and pushed before the next paid request.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { gitFailure, gitOutput, runGit, RunBranchError, type GitResult } from './git-command.js';

export interface RunBranch {
  /** 'branch' when the pull-request branch existed and the run continues it; 'base' when it was created from the base; 'in-place' for --no-git / --dry-run. */
  readonly startedFrom: 'branch' | 'base' | 'in-place';
  /** Commits the run's paths when they changed and pushes the branch; resolves once pushed. False when there was nothing to commit. */
  checkpoint(message: string): Promise<boolean>;
  /** Whether the branch now holds commits of this run (a pull request's worth). */
  changedInRun(): boolean;
  /**
   * When the run's paths on the branch differ from its base (an earlier run's work, not merged): the text of `lockFile` at
   * the base (undefined: none there). Undefined when they do not differ, or in place.
   */
  unmerged(lockFile: string): Promise<{ baseLockText: string | undefined } | undefined>;
}

export interface RunBranchOptions {
  cwd: string;
  remote: string;
  branch: string;
  base: string | undefined;
  paths: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** Who commits when git has no identity configured (a CI runner has none). */
export const AUTOPILOT_AUTHOR = { name: 'astro-article-loader', email: 'autopilot@users.noreply.github.com' } as const;

/** A run with no git: nothing is committed or pushed (--no-git, --dry-run). */
export function inPlaceRunBranch(): RunBranch {
  return { startedFrom: 'in-place', checkpoint: async () => false, changedInRun: () => false, unmerged: async () => undefined };
}

/** What every git call of one run shares. */
interface Repository {
  cwd: string;
  env: NodeJS.ProcessEnv;
  remote: string;
  branch: string;
  /** The run's paths, relative to cwd, as literal pathspecs. */
  paths: readonly string[];
  /** The base's commit when the run started: a pull request from the branch merges into it. */
  baseCommit: string;
  git(args: readonly string[]): Promise<GitResult>;
  output(args: readonly string[]): Promise<string>;
}

/**
 * Opens the run's branch, before anything is read or spent: refuses a shallow clone (it cannot see
 * the branch's history to merge) and uncommitted changes in the run's paths (a checkpoint would commit
 * them); fetches; continues `<remote>/<branch>` with the base merged in when it exists, else starts
 * the branch at the base. Everything the run reads after this comes from that branch.
 */
export async function openRunBranch(options: RunBranchOptions): Promise<RunBranch> {
  const top = await checkRepository(options);
  const env = await withIdentity(options.cwd, options.env);
  const paths = runPaths(options.cwd, top, options.paths);
  const git = { git: (args: readonly string[]) => runGit(args, options.cwd, env), output: (args: readonly string[]) => gitOutput(args, options.cwd, env) };
  const base = await baseOf({ ...git, remote: options.remote, branch: options.branch }, options.base);
  const baseCommit = await git.output(['rev-parse', '--verify', '--end-of-options', `${base}^{commit}`]);
  const repo: Repository = { cwd: options.cwd, env, remote: options.remote, branch: options.branch, paths, baseCommit, ...git };
  await refuseUncommitted(repo);
  const remoteTip = await fetchBranch(repo);
  await refuseDivergedLocal(repo, remoteTip ?? baseCommit);
  await repo.output(['checkout', '--quiet', '--no-track', '-B', repo.branch, remoteTip ?? baseCommit]);
  if (remoteTip !== undefined) await mergeOrAbort(repo, baseCommit, `Merge ${base} into ${repo.branch}`, base);
  return gitRunBranch(repo, remoteTip === undefined ? 'base' : 'branch');
}

/** The top of the work tree; refuses a folder outside git and a shallow clone. */
async function checkRepository(options: RunBranchOptions): Promise<string> {
  const top = await runGit(['rev-parse', '--show-toplevel'], options.cwd, options.env);
  if (top.code !== 0) {
    throw new RunBranchError(
      'not_a_git_repository',
      `${options.cwd} is not in a git repository: autopilot commits the run's articles to the branch ${options.branch} and pushes it. Run it in a clone of the site's repository, or with --no-git to try it in place.`,
    );
  }
  const shallow = await gitOutput(['rev-parse', '--is-shallow-repository'], options.cwd, options.env);
  if (shallow === 'true') {
    throw new RunBranchError(
      'shallow_clone',
      `this clone is shallow: autopilot must see the whole history of ${options.branch} and its base to continue the branch and merge. ` +
        'In a GitHub workflow give actions/checkout `with: { fetch-depth: 0 }` (the workflow `init github` writes does); elsewhere run `git fetch --unshallow` first. Nothing was written or spent.',
    );
  }
  return top.stdout.trim();
}

/** The environment of every git call: the author and committer of the run's commits when git has none configured. */
async function withIdentity(cwd: string, env: NodeJS.ProcessEnv): Promise<NodeJS.ProcessEnv> {
  const configured = async (key: string, variable: string): Promise<boolean> =>
    (env[variable] ?? '') !== '' || (await runGit(['config', '--get', key], cwd, env)).stdout.trim() !== '';
  const named = (await configured('user.name', 'GIT_AUTHOR_NAME')) && (await configured('user.email', 'GIT_AUTHOR_EMAIL'));
  if (named) return env;
  const { name, email } = AUTOPILOT_AUTHOR;
  return { ...env, GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: email };
}

/** `given` (relative to cwd, or absolute) under cwd's real path: git names the top by its real path, so a folder reached through a symbolic link is compared by its real path too. */
function underRealCwd(cwd: string, given: string): { realCwd: string; absolute: string } {
  const realCwd = realpathSync(cwd);
  return { realCwd, absolute: path.resolve(realCwd, path.relative(cwd, path.resolve(cwd, given))) };
}

/** The run's paths relative to cwd, each inside the work tree (a commit can hold nothing else). */
function runPaths(cwd: string, top: string, paths: readonly string[]): string[] {
  return paths.map((given) => {
    const { realCwd, absolute } = underRealCwd(cwd, given);
    const inside = path.relative(top, absolute);
    if (inside.startsWith('..') || path.isAbsolute(inside)) {
      throw new RunBranchError(
        'run_path_outside_repository',
        `${absolute} is outside the repository at ${top}: autopilot can commit only what the repository holds. Keep the manifest, the lock file, its cache and the downloaded images inside it.`,
      );
    }
    return path.relative(realCwd, absolute) || '.';
  });
}

/** The branch to start from and merge in: `--base`, else the branch checked out now. */
async function baseOf(repo: Pick<Repository, 'git' | 'remote' | 'branch'>, given: string | undefined): Promise<string> {
  const base = given ?? ((await repo.git(['symbolic-ref', '--quiet', '--short', 'HEAD'])).stdout.trim() || undefined);
  if (base === undefined) {
    throw new RunBranchError('detached_head', 'no branch is checked out (a detached HEAD): check out the base branch (e.g. main) or say which it is with --base <branch>.');
  }
  if (base === repo.branch) {
    throw new RunBranchError('detached_head', `the run's branch ${repo.branch} is checked out: check out its base (e.g. main) first, or say which it is with --base <branch>.`);
  }
  const local = await repo.git(['rev-parse', '--verify', '--quiet', `refs/heads/${base}`]);
  return local.code === 0 ? base : `refs/remotes/${repo.remote}/${base}`;
}

/** Uncommitted changes in the run's paths would go into its first commit: refused before anything is spent. */
async function refuseUncommitted(repo: Repository): Promise<void> {
  const status = await repo.git(['status', '--porcelain', '--', ...literal(repo.paths)]);
  if (status.code !== 0) throw gitFailure(['status'], status);
  const files = status.stdout.split('\n').filter((line) => line.length > 3).map((line) => line.slice(3)).slice(0, 5);
  if (files.length === 0) return;
  throw new RunBranchError(
    'run_paths_uncommitted',
    `uncommitted changes in the files autopilot commits (${files.join(', ')}): commit or stash them first, so the run's commits hold only what it did. Nothing was written or spent.`,
  );
}

/** The remote's tip of the run's branch after fetching it, or undefined when the remote has no such branch. */
async function fetchBranch(repo: Repository): Promise<string | undefined> {
  const ref = `refs/heads/${repo.branch}`;
  const listed = await repo.git(['ls-remote', '--exit-code', '--heads', repo.remote, ref]);
  if (listed.code === 2) return undefined;
  if (listed.code !== 0) throw gitFailure(['ls-remote'], listed);
  await repo.output(['fetch', '--quiet', '--no-tags', repo.remote, `+${ref}:refs/remotes/${repo.remote}/${repo.branch}`]);
  return repo.output(['rev-parse', '--verify', `refs/remotes/${repo.remote}/${repo.branch}^{commit}`]);
}

/** A local branch of the run's name with commits not in `start` may hold paid ids that never reached the remote: never reset. */
async function refuseDivergedLocal(repo: Repository, start: string): Promise<void> {
  const local = await repo.git(['rev-parse', '--verify', '--quiet', `refs/heads/${repo.branch}^{commit}`]);
  if (local.code !== 0) return;
  const contained = await repo.git(['merge-base', '--is-ancestor', local.stdout.trim(), start]);
  if (contained.code === 0) return;
  throw new RunBranchError(
    'branch_diverged',
    `the local branch ${repo.branch} has commits that ${repo.remote} does not (perhaps articles already paid for): push it (git push ${repo.remote} ${repo.branch}) or merge it by hand, then run again. Nothing was written or spent.`,
  );
}

/** Merges `commit` into the checked-out branch; a conflict aborts the merge and says what to do. */
async function mergeOrAbort(repo: Repository, commit: string, message: string, shown: string): Promise<void> {
  const merged = await repo.git(['merge', '--no-edit', '--no-verify', '-m', message, commit]);
  if (merged.code === 0) return;
  const conflicted = (await repo.git(['diff', '--name-only', '--diff-filter=U'])).stdout.trim().split('\n').filter((file) => file !== '');
  await repo.git(['merge', '--abort']);
  if (conflicted.length === 0) throw gitFailure(['merge'], merged);
  throw new RunBranchError(
    'branch_conflict',
    `${repo.branch} and ${shown} both changed ${conflicted.join(', ')}; the merge was aborted. Merge by hand (git fetch ${repo.remote}, git checkout ${repo.branch}, git merge ${shown}), ` +
      `keep the entries of both sides of the lock file, commit and push ${repo.branch}, then run again. Do not delete the branch: its lock file records articles already paid for.`,
  );
}

function literal(paths: readonly string[]): string[] {
  return paths.map((file) => `:(literal)${file}`);
}

/** The git run branch: checkpoints one at a time, a checkpoint asked for while one runs joins the next. */
function gitRunBranch(repo: Repository, startedFrom: 'branch' | 'base'): RunBranch {
  let changed = false;
  let running: Promise<boolean> | undefined;
  let queued: Promise<boolean> | undefined;
  const start = (message: string): Promise<boolean> => {
    running = commitAndPush(repo, message)
      .then((committed) => {
        changed ||= committed;
        return committed;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    startedFrom,
    changedInRun: () => changed,
    unmerged: (lockFile) => unmergedChanges(repo, lockFile),
    checkpoint(message) {
      if (queued !== undefined) return queued;
      if (running === undefined) return start(message);
      queued = running.catch(() => undefined).then(() => {
        queued = undefined;
        return start(message);
      });
      return queued;
    },
  };
}

/** The base's lock file text when the branch's run paths differ from the base's, else undefined (see RunBranch.unmerged). */
async function unmergedChanges(repo: Repository, lockFile: string): Promise<{ baseLockText: string | undefined } | undefined> {
  const diff = await repo.git(['diff', '--quiet', repo.baseCommit, 'HEAD', '--', ...literal(repo.paths)]);
  if (diff.code === 0) return undefined;
  if (diff.code !== 1) throw gitFailure(['diff'], diff);
  const { realCwd, absolute } = underRealCwd(repo.cwd, lockFile);
  const shown = await repo.git(['show', `${repo.baseCommit}:./${path.relative(realCwd, absolute)}`]);
  return { baseLockText: shown.code === 0 ? shown.stdout : undefined };
}

/** Commits the run's paths when they changed, then pushes; false when there was nothing to commit. */
async function commitAndPush(repo: Repository, message: string): Promise<boolean> {
  const present = await presentPaths(repo);
  if (present.length === 0) return false;
  await repo.output(['add', '--all', '--', ...literal(present)]);
  const staged = await repo.git(['diff', '--cached', '--quiet', '--', ...literal(present)]);
  if (staged.code === 0) return false;
  await repo.output(['commit', '--quiet', '--no-verify', '-m', message, '--', ...literal(present)]);
  await push(repo);
  return true;
}

/** The run's paths git can add: on disk or tracked, and not ignored (`git add` refuses the others). */
async function presentPaths(repo: Repository): Promise<string[]> {
  const present: string[] = [];
  for (const file of repo.paths) {
    const tracked = (await repo.output(['ls-files', '--', `:(literal)${file}`])) !== '';
    if (!tracked && !existsSync(path.resolve(repo.cwd, file))) continue;
    const ignored = (await repo.git(['check-ignore', '--quiet', '--', file])).code === 0;
    if (tracked || !ignored) present.push(file);
  }
  return present;
}

const REJECTED = /\[rejected\]|non-fast-forward|fetch first|\(stale info\)/;

/** Pushes the branch, never forced; a rejected push (someone pushed meanwhile) fetches, merges and tries once more. */
async function push(repo: Repository): Promise<void> {
  const refspec = `HEAD:refs/heads/${repo.branch}`;
  const first = await repo.git(['push', '--quiet', '--no-verify', repo.remote, refspec]);
  if (first.code === 0) return;
  if (!REJECTED.test(first.stderr)) throw pushFailure(repo, first);
  const tracking = `refs/remotes/${repo.remote}/${repo.branch}`;
  await repo.output(['fetch', '--quiet', '--no-tags', repo.remote, `+refs/heads/${repo.branch}:${tracking}`]);
  await mergeOrAbort(repo, tracking, `Merge ${repo.remote}/${repo.branch} into ${repo.branch}`, `${repo.remote}/${repo.branch}`);
  const second = await repo.git(['push', '--quiet', '--no-verify', repo.remote, refspec]);
  if (second.code !== 0) throw pushFailure(repo, second);
}

function pushFailure(repo: Repository, result: GitResult): RunBranchError {
  const said = result.stderr.trim() || `exit code ${result.code}`;
  const workflows = /workflows?` permission|refusing to allow/i.test(said)
    ? ` GitHub refuses a workflow's token a push that changes .github/workflows (here merged in from the base): merge the base into ${repo.branch} and push it yourself, then run again.`
    : '';
  return new RunBranchError(
    'push_failed',
    `could not push ${repo.branch} to ${repo.remote}: ${said}.${workflows} The commit is kept in this clone; the run stopped before any further request (in a workflow the job needs \`permissions: contents: write\`).`,
  );
}
