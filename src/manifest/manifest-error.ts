// The manifest's error: every problem found in one manifest, each naming file, line, entry and field, formatted for a terminal.
import path from 'node:path';
import { ArticleLoaderError } from '../errors.js';

/** Which part of the manifest a problem is in. */
export type ManifestSection = 'file' | 'top-level' | 'defaults' | 'articles' | 'header';

/** One thing wrong with a manifest, with where it is and what to do about it. */
export interface ManifestProblem {
  /** The manifest file as given, or the label of an inline manifest (e.g. "astro content config (articles option)"). */
  file: string;
  /** 1-based line, when the format has lines. */
  line?: number;
  /** 1-based column, given for syntax errors. */
  column?: number;
  section: ManifestSection;
  /** 0-based position in `articles` (for CSV: the data row, header excluded). */
  index?: number;
  /** The entry's keyword as written, when it has one. */
  keyword?: string;
  /** The field, dotted: `numRetailProducts`, `polishSettings.humanize`, `urls[1]`, `slug`. */
  field?: string;
  /** What is wrong and what to do about it. */
  message: string;
}

const MAX_KEYWORD_SHOWN = 60;

/** A path relative to the working directory when it is inside it: short, and still clickable in a terminal. */
export function displayFile(file: string): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/**
 * Control, invisible and reordering characters, lone surrogates and tag characters, shown as
 * escapes: printed as they are, they would garble the message itself, or drive the terminal (a C1
 * control such as U+009B starts an escape sequence in some). Joiners are kept: emoji and Indic
 * text need them, and a misplaced one is named by its code point in the message.
 */
const UNPRINTABLE =
  /\uDB40[\uDC00-\uDC7F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\u3164\uFEFF\uFFA0]/g;

/** `text` with every unprintable character as an escape (`\\u202E`, `\\u{E0041}`); everything else is kept. */
function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16).toUpperCase()}}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
}

function shownKeyword(keyword: string): string {
  const oneLine = keyword.replace(/\s+/g, ' ').trim();
  const short = [...oneLine].length > MAX_KEYWORD_SHOWN ? `${[...oneLine].slice(0, MAX_KEYWORD_SHOWN - 1).join('')}…` : oneLine;
  return JSON.stringify(short);
}

/** Where a problem is, as `articles[3] "best shoes"`, `defaults`, `header`, or '' for the whole file. */
export function problemLocation(problem: ManifestProblem): string {
  switch (problem.section) {
    case 'articles': {
      const entry = problem.index === undefined ? 'articles' : `articles[${problem.index}]`;
      return problem.keyword === undefined || problem.keyword.trim() === '' ? entry : `${entry} ${shownKeyword(problem.keyword)}`;
    }
    case 'defaults':
      return 'defaults';
    case 'header':
      return 'header';
    case 'top-level':
      return 'top level';
    case 'file':
      return '';
  }
}

/** One problem on one line: `articles.yaml:12 articles[3] "best shoes" → numRetailProducts: must be from 1 to 48`. */
export function formatManifestProblem(problem: ManifestProblem): string {
  let at = displayFile(problem.file);
  if (problem.line !== undefined) at += `:${problem.line}`;
  if (problem.line !== undefined && problem.column !== undefined) at += `:${problem.column}`;
  const where = problemLocation(problem);
  const head = where ? `${at} ${where}` : at;
  // Fields and messages quote what the manifest holds (a header cell, a parameter's name, a value).
  return printable(problem.field === undefined ? `${head}: ${problem.message}` : `${head} → ${problem.field}: ${problem.message}`);
}

function byPosition(a: ManifestProblem, b: ManifestProblem): number {
  return (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) || (a.index ?? -1) - (b.index ?? -1);
}

/**
 * Everything wrong with one manifest, reported together so one edit fixes them all.
 * `problems` is in file order; `message` lists every problem, one per line.
 */
export class ManifestError extends ArticleLoaderError {
  readonly file: string;
  readonly problems: ManifestProblem[];

  constructor(file: string, problems: ManifestProblem[], options?: { cause?: unknown }) {
    const sorted = [...problems].sort(byPosition);
    const count = sorted.length === 1 ? '1 problem' : `${sorted.length} problems`;
    const lines = sorted.map((problem) => `  ${formatManifestProblem(problem)}`);
    super('invalid_manifest', `Manifest ${printable(displayFile(file))} has ${count}; fix and run again:\n${lines.join('\n')}`, options);
    this.file = file;
    this.problems = sorted;
  }
}
