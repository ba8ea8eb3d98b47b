// The frame every command runs in: parse flags, answer --help, print errors the same way, return an exit code.
import { parseCommandLine, type FlagSpec, type ParsedFlags, type PositionalSpec } from './command-line.js';
import { reportError } from './error-report.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { Output, processIo, type CommandIo } from './output.js';

export interface CommandDefinition {
  name: string;
  /** One line for the command table of `astro-article-loader --help`. */
  summary: string;
  /** The full `--help` text: usage, options, examples, exit codes. */
  help: string;
  flags: Record<string, FlagSpec>;
  /** Boolean flags that also take `=slug,slug`. */
  selectionFlags?: readonly string[];
  /** Arguments besides the flags; none when left out. */
  positionals?: PositionalSpec;
  /** What the command does, once its flags are parsed and `--help` answered. */
  body: (context: CommandContext) => Promise<ExitCode>;
}

export interface CommandContext {
  flags: ParsedFlags;
  output: Output;
  io: CommandIo;
  verbose: boolean;
}

/** Runs the command's `body` with parsed flags; every error it throws is printed (as JSON with `--json`) and mapped to an exit code. */
export async function runCommand(definition: CommandDefinition, args: readonly string[], io: CommandIo = processIo()): Promise<ExitCode> {
  // Before parsing: a usage error must still honour --json and --no-color.
  const json = args.includes('--json');
  let output = new Output(io, { json, noColor: args.includes('--no-color') });
  let flags: ParsedFlags;
  try {
    flags = parseCommandLine(args, definition.flags, definition.selectionFlags, definition.positionals);
  } catch (error) {
    return reportError(output, definition.name, error, { verbose: false });
  }
  if (flags.boolean('help')) {
    io.stdout.write(`${definition.help}\n`);
    return EXIT_CODES.ok;
  }
  output = new Output(io, { json: flags.boolean('json'), noColor: flags.boolean('no-color') });
  const verbose = flags.boolean('verbose');
  try {
    return await definition.body({ flags, output, io, verbose });
  } catch (error) {
    return reportError(output, definition.name, error, { verbose });
  }
}
