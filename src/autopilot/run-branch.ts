// The run's branch: where autopilot reads and commits the manifest, lock file and cache (the git part replaces this file; until then, only the in-place run exists).
import { ArticleLoaderError } from '../errors.js';

export interface RunBranch {
  /** 'branch' when the pull-request branch existed and the run continues it; 'base' when it was created from the base; 'in-place' for --no-git / --dry-run. */
  readonly startedFrom: 'branch' | 'base' | 'in-place';
  /** Commits the run's paths when they changed and pushes the branch; resolves once pushed. False when there was nothing to commit. */
  checkpoint(message: string): Promise<boolean>;
  /** Whether the branch now holds commits of this run (a pull request's worth). */
  changedInRun(): boolean;
}

export interface RunBranchOptions {
  cwd: string;
  remote: string;
  branch: string;
  base: string | undefined;
  paths: readonly string[];
  env: NodeJS.ProcessEnv;
}

/** The git implementation: comes with the git part of autopilot. */
export async function openRunBranch(options: RunBranchOptions): Promise<RunBranch> {
  throw new ArticleLoaderError(
    'autopilot_git_unavailable',
    `autopilot cannot run on the branch ${JSON.stringify(options.branch)} yet: git runs come with the git part of autopilot. Run it with --no-git (in place: no branch, no commit, no push).`,
  );
}

/** No git: the run works in place, and a checkpoint does nothing. */
export function inPlaceRunBranch(): RunBranch {
  return { startedFrom: 'in-place', checkpoint: async () => false, changedInRun: () => false };
}
