// The exit codes of every astro-article-loader command, declared once: the codes, `--help` and the CLI guide's table come from here.

/**
 * Scripts branch on these, so they never change meaning. Each has a code, the name the commands
 * use, and a plain-text meaning that `--help` and docs/cli.md print (a test keeps the guide equal).
 */
const DECLARED = [
  { code: 0, name: 'ok', meaning: 'ok (plan: nothing would be created; autopilot: nothing to do)' },
  {
    code: 1,
    name: 'failure',
    meaning:
      'failure: an article failed or did not finish, the service refused or could not be reached, a command refused what it was asked (adopt: another keyword, an unknown id or slug, a failed article; regenerate, edit: a slug not in the manifest or not finished; edit: the edit exists already; approve, unapprove: an unknown slug or one with no output; init: a workflow file exists and --force was not given), an unexpected error',
  },
  {
    code: 2,
    name: 'usage',
    meaning: 'usage or configuration error: unknown flag or bad value, no or invalid manifest, no service configured, a key given as a flag, a report path that cannot be written, not in a git repository or a shallow clone (init, autopilot)',
  },
  { code: 3, name: 'wouldCreate', meaning: 'articles would be created (and paid for) and were not: plan found some, or sync was frozen or over budget' },
  { code: 4, name: 'verifyFailed', meaning: 'verify found an error: the lock file and the cache disagree or cannot be trusted (or read), an unknown create is unresolved, or an edit is empty' },
  { code: 5, name: 'qualityErrors', meaning: 'check found a finding of severity error in an article the build publishes' },
  { code: 6, name: 'changes', meaning: 'autopilot: the branch holds new changes for a pull request (articles created, finished, refreshed or approved in this run; a cap may also have held some back: the report says)' },
  { code: 7, name: 'capReached', meaning: 'autopilot: a cap (budget.perRun, budget.perMonth or --budget) held back work that is due, and nothing new is on the branch' },
  {
    code: 8,
    name: 'unmerged',
    meaning: "autopilot: nothing new in this run, but the branch holds an earlier run's changes that its base lacks (a job that died before its pull request, or a pull request closed unmerged): the workflow opens a pull request when none is open",
  },
  { code: 130, name: 'interrupted', meaning: 'interrupted by Ctrl-C (SIGINT); the lock file is consistent' },
  { code: 143, name: 'terminated', meaning: 'stopped by SIGTERM; the lock file is consistent' },
] as const;

type Declared = (typeof DECLARED)[number];

/** Every exit code with its name and meaning, in code order. */
export const EXIT_CODE_LIST: readonly Declared[] = DECLARED;

/** The codes by name, for the commands: `EXIT_CODES.wouldCreate` is 3. */
export const EXIT_CODES = Object.fromEntries(DECLARED.map(({ name, code }) => [name, code])) as {
  readonly [D in Declared as D['name']]: D['code'];
};

export type ExitCode = Declared['code'];

/** The widest help line; longer meanings wrap under their own first word. */
const HELP_WIDTH = 92;
const HELP_INDENT = 7;

/** Breaks a meaning into lines that fit beside the code column. */
function wrapMeaning(meaning: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of meaning.split(' ')) {
    if (line !== '' && HELP_INDENT + line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** The table as printed by `--help`. */
export const EXIT_CODE_HELP = [
  'Exit codes:',
  ...EXIT_CODE_LIST.map(({ code, meaning }) =>
    wrapMeaning(meaning)
      .map((line, index) => (index === 0 ? `  ${String(code).padEnd(HELP_INDENT - 2)}${line}` : `${' '.repeat(HELP_INDENT)}${line}`))
      .join('\n'),
  ),
].join('\n');

/** The table as the CLI guide prints it (Markdown); a test keeps docs/cli.md equal to it. */
export function exitCodeTable(): string {
  return ['| code | meaning |', '|---|---|', ...EXIT_CODE_LIST.map(({ code, meaning }) => `| ${code} | ${meaning} |`)].join('\n');
}
