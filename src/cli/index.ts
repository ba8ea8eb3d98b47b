#!/usr/bin/env node
// The astro-article-loader command line: a table of subcommands, each loaded only when run.
import { parseArgs } from 'node:util';

interface Subcommand {
  summary: string;
  /** Runs the subcommand with the arguments after its name; resolves with the exit code. */
  run: (args: string[]) => Promise<number>;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
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
    '',
    'Examples:',
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
