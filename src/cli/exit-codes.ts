// The exit codes of every astro-article-loader command, in one place, so scripts can rely on them.

/**
 * Scripts branch on these, so they never change meaning. Every command uses this table; `--help`
 * and the README print it.
 */
export const EXIT_CODES = {
  /** The command did what was asked; for `plan`: nothing would be created. */
  ok: 0,
  /** Something failed: an article failed or did not finish, the service refused or could not be reached, an unexpected error. */
  failure: 1,
  /** The command was called wrongly: unknown flag, bad value, no or invalid manifest, no service configured. */
  usage: 2,
  /** Articles would have to be created (and paid for) and were not: `plan` found some, or `sync` was frozen or over budget. */
  wouldCreate: 3,
  /** `verify` found the lock file and the cache inconsistent. */
  verifyFailed: 4,
  /** Stopped by Ctrl-C (SIGINT); the lock file is consistent. */
  interrupted: 130,
  /** Stopped by SIGTERM; the lock file is consistent. */
  terminated: 143,
} as const;

export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

/** The table as printed by `--help`. */
export const EXIT_CODE_HELP = `Exit codes:
  0    ok (plan: nothing would be created)
  1    failure (an article failed or did not finish, service error, unexpected error)
  2    usage or configuration error (bad flag, no or invalid manifest, no service configured)
  3    articles would be created and were not (plan found some; sync frozen or over budget)
  4    verify found problems
  130  interrupted by Ctrl-C (143: SIGTERM); the lock file is consistent`;
