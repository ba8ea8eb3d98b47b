// Parsing a command's flags with node:util parseArgs: the flags every command shares, typed readers, and the flags we refuse.
import { parseArgs } from 'node:util';
import { fixedMs, parseDuration } from '../lang/duration.js';
import { suggestName } from '../manifest/suggestion.js';
import { UsageError } from './usage-error.js';

export interface FlagSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

/** Flags every command takes (besides its own). */
export const COMMON_FLAGS = {
  manifest: { type: 'string', short: 'm' },
  'lock-file': { type: 'string' },
  json: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, FlagSpec>;

export const COMMON_FLAG_HELP = `  -m, --manifest <file>  The manifest (default: articles.yaml, .yml, .json or .csv
                         in the current directory)
  --lock-file <file>     The lock file (default: articles.lock.json next to the
                         manifest); the cache is articles.cache/ beside it
  --json                 Print one JSON document on stdout (no colour, no progress)
  --no-color             No colours (also when NO_COLOR is set)
  -v, --verbose          Stack traces of unexpected errors (also with DEBUG set)
  -h, --help             Show this help`;

/**
 * Names someone might try for the key. A flag lands in shell history, `ps` output and CI logs,
 * so the key is only ever read from the environment, and a key given as a flag is refused
 * without being echoed.
 */
const KEY_FLAG = /^--?(api[-_]?key|apikey|key|token|secret)(=|$)/i;

export const API_KEY_FLAG_REFUSAL =
  'the API key is never taken as a flag: a flag ends up in your shell history, in `ps` output and in CI logs. ' +
  'Set it in the environment instead: ARTICLES_API_KEY (for example from a .env file your shell loads, or your CI\'s secret store). ' +
  'If you just typed the key on a command line, consider rotating it.';

/** The values parsed from a command line, with readers that check each flag's type. */
export class ParsedFlags {
  readonly #values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  readonly #lists: Map<string, string[]>;
  /** The arguments that are not flags, in order (only for commands that declare them). */
  readonly positionals: readonly string[];

  constructor(values: Record<string, string | boolean | (string | boolean)[] | undefined>, lists: Map<string, string[]>, positionals: readonly string[] = []) {
    this.#values = values;
    this.#lists = lists;
    this.positionals = positionals;
  }

  has(name: string): boolean {
    return this.#values[name] !== undefined || this.#lists.has(name);
  }

  boolean(name: string): boolean {
    return this.#values[name] === true;
  }

  string(name: string): string | undefined {
    const value = this.#values[name];
    return typeof value === 'string' ? value : undefined;
  }

  /** Every value of a repeatable string flag (`multiple`), in order; none when absent. */
  strings(name: string): string[] {
    const value = this.#values[name];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return values.filter((item): item is string => typeof item === 'string');
  }

  /** `--flag` → true (all), `--flag=a,b` → ['a', 'b'], absent → undefined. */
  selection(name: string): true | string[] | undefined {
    const list = this.#lists.get(name);
    if (list !== undefined) return list;
    return this.#values[name] === true ? true : undefined;
  }

  /** A whole number ≥ `min`, or `fallback` when the flag is absent. */
  wholeNumber(name: string, min: number, fallback: number): number {
    const value = this.string(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${value}".`);
    return Number(value);
  }

  /** A duration like `90s`, `30m`, `1h`, `500ms`, `2d` or a bare number of seconds, in ms (months have no fixed length, so not here). */
  duration(name: string, fallbackMs: number): number {
    const value = this.string(name);
    if (value === undefined) return fallbackMs;
    const parsed = parseDuration(value);
    const ms = parsed === undefined ? undefined : fixedMs(parsed);
    if (ms === undefined) throw new UsageError(`--${name} must be a duration like 90s, 30m or 1h, got "${value}".`);
    return ms;
  }
}

/** The arguments a command takes besides its flags, e.g. `adopt <slug> <articleId>`. */
export interface PositionalSpec {
  /** Their names, as the usage line shows them: all are required. */
  names: readonly string[];
  /** The last one may be repeated (`<slug…>`): one or more. */
  variadic?: boolean;
}

/**
 * Parses `args` against `flags` (plus COMMON_FLAGS). `selectionFlags` are booleans that also accept
 * `=a,b` (a list of slugs), which parseArgs alone cannot express. Positional arguments are refused
 * unless `positionals` declares them.
 */
export function parseCommandLine(
  args: readonly string[],
  flags: Record<string, FlagSpec>,
  selectionFlags: readonly string[] = [],
  positionals?: PositionalSpec,
): ParsedFlags {
  const lists = new Map<string, string[]>();
  const rest: string[] = [];
  for (const arg of args) {
    if (arg === '--') {
      rest.push(arg);
      continue;
    }
    if (KEY_FLAG.test(arg)) throw new UsageError(API_KEY_FLAG_REFUSAL);
    const selection = /^--([a-z-]+)=(.*)$/s.exec(arg);
    if (selection !== null && selectionFlags.includes(selection[1]!)) {
      const slugs = selection[2]!.split(',').map((s) => s.trim()).filter((s) => s !== '');
      if (slugs.length === 0) throw new UsageError(`--${selection[1]}= needs a comma-separated list of slugs, or no "=" for all.`);
      lists.set(selection[1]!, [...(lists.get(selection[1]!) ?? []), ...slugs]);
      continue;
    }
    rest.push(arg);
  }
  try {
    const parsed = parseArgs({ args: rest, options: { ...COMMON_FLAGS, ...flags }, strict: true, allowPositionals: positionals !== undefined });
    const values = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
    if (positionals !== undefined && values.help !== true) checkPositionals(parsed.positionals, positionals);
    // Slugs are NFC (manifest/slug.ts): one typed or pasted in another Unicode form (café as e + U+0301) names the same article.
    return new ParsedFlags(values, lists, parsed.positionals.map((positional) => positional.normalize('NFC')));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(parseArgsMessage(error as Error, Object.keys({ ...COMMON_FLAGS, ...flags })));
    throw error;
  }
}

/** parseArgs's message, with a did-you-mean for an unknown flag (`--bugdet` → `--budget`). */
function parseArgsMessage(error: Error, known: readonly string[]): string {
  const message = `${error.message}.`.replace(/\.\.$/, '.');
  const unknown = /Unknown option '--([^'=]+)'/.exec(error.message)?.[1];
  const guess = unknown === undefined ? undefined : suggestName(unknown, known);
  return guess === undefined ? message : `unknown option --${unknown}; did you mean --${guess}?`;
}

function checkPositionals(given: readonly string[], spec: PositionalSpec): void {
  const shown = spec.names.map((name, index) => (spec.variadic === true && index === spec.names.length - 1 ? `<${name}…>` : `<${name}>`));
  const usage = shown.join(' ');
  if (given.length < spec.names.length) throw new UsageError(`missing ${shown.slice(given.length).join(' ')}: the arguments are ${usage}.`);
  if (given.length > spec.names.length && spec.variadic !== true) throw new UsageError(`too many arguments (${given.length}): the arguments are ${usage}.`);
}
