#!/usr/bin/env node
// The astro-article-loader command line: a table of subcommands, each loaded only when run.
import { parseArgs } from 'node:util';

interface Subcommand {
  summary: string;
  /** Runs the subcommand with the arguments after its name; resolves with the exit code. */
  run: (args: string[]) => Promise<number>;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
  plan: {
    summary: 'Show what a build would create, reuse or wait for, why, and what it would cost. No requests.',
    run: async (args) => (await import('./commands/plan.js')).runPlanCommand(args),
  },
  sync: {
    summary: 'Create the missing articles and wait for them, outside of an Astro build.',
    run: async (args) => (await import('./commands/sync.js')).runSyncCommand(args),
  },
  status: {
    summary: "List the lock file's articles, their status on the service and the words billed so far.",
    run: async (args) => (await import('./commands/status.js')).runStatusCommand(args),
  },
  prune: {
    summary: 'Remove orphaned lock entries and unreferenced cache files (--dry-run shows them).',
    run: async (args) => (await import('./commands/prune.js')).runPruneCommand(args),
  },
  verify: {
    summary: 'Check that the lock file and the cache are consistent (for CI). No requests.',
    run: async (args) => (await import('./commands/verify.js')).runVerifyCommand(args),
  },
  adopt: {
    summary: "Attach an article found on the service's queue page to its entry (an unknown create). Never creates.",
    run: async (args) => (await import('./commands/adopt.js')).runAdoptCommand(args),
  },
  emulator: {
    summary: 'Run a local emulator of the article service (offline, free).',
    run: async (args) => (await import('../emulator/command.js')).runEmulatorCommand(args),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((name) => name.length));
  const lines = Object.entries(SUBCOMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return [
    'Usage: astro-article-loader <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run "astro-article-loader <command> --help" for the options of a command.',
    'The API key is read from ARTICLES_API_KEY only, never from a flag.',
    '',
    'Exit codes: 0 ok, 1 failure, 2 usage or configuration error, 3 articles would be',
    'created (plan; sync frozen or over budget), 4 verify failed, 130 interrupted.',
    '',
    'Examples:',
    '  npx astro-article-loader plan                 # what a build would create and cost',
    '  npx astro-article-loader sync                 # create and wait (ARTICLES_API_KEY from the environment)',
    '  npx astro-article-loader status',
    '  npx astro-article-loader prune --dry-run',
    '  npx astro-article-loader verify               # in CI, with plan',
    '  npx astro-article-loader adopt <slug> <articleId>   # an unknown create found on the queue page',
    '  npx astro-article-loader emulator',
    '  npx astro-article-loader emulator --port 4010 --speed realtime',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, strict: false, allowPositionals: true });
  const name = positionals[0];
  if (name === undefined || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${usage()}\n`);
    return name === undefined && argv.length === 0 ? 2 : 0;
  }
  const command = SUBCOMMANDS[name];
  if (command === undefined || argv[0] !== name) {
    process.stderr.write(`astro-article-loader: unknown command "${argv[0] ?? ''}".\n\n${usage()}\n`);
    return 2;
  }
  return command.run(argv.slice(1));
}

process.exitCode = await main(process.argv.slice(2));
