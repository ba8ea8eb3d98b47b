// The astro-article-loader command line: a table of subcommands, each loaded only when run (or listed by --help).
import { parseArgs } from 'node:util';
import type { CommandDefinition } from './command-runner.js';
import { processIo, type CommandIo } from './output.js';
import { EXIT_CODE_HELP, EXIT_CODES } from './exit-codes.js';

interface Subcommand {
  /** One line for the command table of `astro-article-loader --help`. */
  summary: string;
  /** Runs the subcommand with the arguments after its name; resolves with the exit code. */
  run: (args: string[], io: CommandIo) => Promise<number>;
}

/**
 * Where each subcommand lives, in the order of the command table. A command of src/cli/commands
 * declares its summary and help in its own definition; the modules are loaded only to run one
 * command, or to list them all.
 */
const SUBCOMMANDS: Record<string, () => Promise<Subcommand>> = {
  plan: async () => defined((await import('./commands/plan.js')).PLAN_COMMAND),
  sync: async () => defined((await import('./commands/sync.js')).SYNC_COMMAND),
  status: async () => defined((await import('./commands/status.js')).STATUS_COMMAND),
  prune: async () => defined((await import('./commands/prune.js')).PRUNE_COMMAND),
  verify: async () => defined((await import('./commands/verify.js')).VERIFY_COMMAND),
  adopt: async () => defined((await import('./commands/adopt.js')).ADOPT_COMMAND),
  regenerate: async () => defined((await import('./commands/regenerate.js')).REGENERATE_COMMAND),
  edit: async () => defined((await import('./commands/edit.js')).EDIT_COMMAND),
  check: async () => defined((await import('./commands/check.js')).CHECK_COMMAND),
  approve: async () => defined((await import('./commands/approve.js')).APPROVE_COMMAND),
  unapprove: async () => defined((await import('./commands/approve.js')).UNAPPROVE_COMMAND),
  autopilot: async () => defined((await import('./commands/autopilot.js')).AUTOPILOT_COMMAND),
  init: async () => defined((await import('./commands/init.js')).INIT_COMMAND),
  // The emulator is a server in the foreground: it runs against this process's streams and signals, not `io`.
  emulator: async () => ({
    summary: 'Run a local emulator of the article service (offline, free).',
    run: async (args) => (await import('../emulator/command.js')).runEmulatorCommand(args),
  }),
};

/** A command of src/cli/commands as the table needs it: run through the frame every command shares. */
async function defined(definition: CommandDefinition): Promise<Subcommand> {
  const { runCommand } = await import('./command-runner.js');
  return { summary: definition.summary, run: (args, io) => runCommand(definition, args, io) };
}

/** The top-level help: the command table (every summary as its command declares it), exit codes, examples. */
async function usage(): Promise<string> {
  const commands = await Promise.all(Object.entries(SUBCOMMANDS).map(async ([name, load]) => ({ name, summary: (await load()).summary })));
  const width = Math.max(...commands.map(({ name }) => name.length));
  const lines = commands.map(({ name, summary }) => `  ${name.padEnd(width)}  ${summary}`);
  return [
    'Usage: astro-article-loader <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run "astro-article-loader <command> --help" for the options of a command.',
    'The API key is read from ARTICLES_API_KEY only, never from a flag.',
    '',
    EXIT_CODE_HELP,
    '',
    'Examples:',
    '  npx astro-article-loader plan                 # what a build would create and cost',
    '  npx astro-article-loader sync                 # create and wait (ARTICLES_API_KEY from the environment)',
    '  npx astro-article-loader status',
    '  npx astro-article-loader prune --dry-run',
    '  npx astro-article-loader verify               # in CI, with plan',
    '  npx astro-article-loader check                # quality findings on what the build publishes',
    '  npx astro-article-loader adopt <slug> <articleId>   # an unknown create found on the queue page',
    '  npx astro-article-loader approve <slug…>      # with review: true, publish what you have read',
    '  npx astro-article-loader autopilot --report report.md   # a scheduled job: create what is due, within the caps',
    '  npx astro-article-loader init github          # the workflow that runs the site by itself (docs/autopilot.md)',
    '  npx astro-article-loader emulator',
    '  npx astro-article-loader emulator --port 4010 --speed realtime',
  ].join('\n');
}

/** Runs the command line `argv` (without node and the bin) against `io`; resolves with the exit code. */
export async function main(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: false, allowPositionals: true });
  const name = positionals[0];
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout.write(`${await usage()}\n`);
    return argv.length === 0 ? EXIT_CODES.usage : EXIT_CODES.ok;
  }
  const load = name !== undefined && Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (load === undefined || argv[0] !== name) return refuseCommand(argv, io);
  return (await load()).run(argv.slice(1), io);
}

/** A command line that does not start with a command (`--json`, `--budget 3 sync`, `plna`): exit 2, as JSON with --json. */
async function refuseCommand(argv: string[], io: CommandIo): Promise<number> {
  const { didYouMean, suggestName } = await import('../manifest/suggestion.js');
  const first = argv[0] ?? '';
  const message = first.startsWith('-')
    ? `a command comes first, before its options: "${first}" is not a command (astro-article-loader <command> [options])`
    : `unknown command "${first}"${didYouMean(suggestName(first, Object.keys(SUBCOMMANDS)))}`;
  if (argv.includes('--json')) {
    const [{ errorJson }, { UsageError }] = await Promise.all([import('./error-report.js'), import('./usage-error.js')]);
    io.stdout.write(`${JSON.stringify({ schemaVersion: 1, command: null, exitCode: EXIT_CODES.usage, error: errorJson(new UsageError(message)) }, null, 2)}\n`);
  } else {
    io.stderr.write(`astro-article-loader: ${message}${message.endsWith('?') ? '' : '.'}\n\n${await usage()}\n`);
  }
  return EXIT_CODES.usage;
}
