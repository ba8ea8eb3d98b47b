// Reads a CSV manifest (a keyword export from an SEO tool): a header row of parameter names, one article per row, cells typed by the request schema.
import { CsvError, parse } from 'csv-parse/sync';
import { ALL_PARAMETER_NAMES, POLISH_SETTING_KEYS } from '../contract/request-schema.js';
import type { DataPath, ManifestDocument } from './manifest-document.js';
import type { ManifestProblem } from './manifest-error.js';
import { parameterKind } from './parameter-kinds.js';
import { didYouMean, suggestName } from './suggestion.js';

/** Separates the items of a list cell (`urls`, `outline`): URLs cannot contain a bare `|`, and section names rarely do. */
export const CSV_LIST_SEPARATOR = '|';

const DELIMITERS = [',', ';', '\t'] as const;

// Column names a CSV may use besides request parameters, matched ignoring case, spaces, `_` and `-`.
const KEYWORD_HEADERS = new Set(['keyword', 'targetkeyword']);
const COLUMN_NAMES: readonly string[] = [
  ...ALL_PARAMETER_NAMES.filter((name) => name !== 'targetKeyword'),
  ...POLISH_SETTING_KEYS.map((key) => `polishSettings.${key}`),
];

type Column =
  | { role: 'keyword' }
  | { role: 'slug' }
  | { role: 'parameter'; name: string }
  | { role: 'site'; name: string } // draft, publishDate, data.<field>: the site's own, never sent
  | { role: 'languages' } // "English; German": one article per language
  | { role: 'perLanguage'; name: string; field: string } // keyword.German, title.German, locale.Klingon: kept as the dotted name
  | { role: 'comment' } // header starts with #: ignored on purpose
  | { role: 'blank' } // no header
  | { role: 'unknown' };

function classify(header: string): Column {
  const key = loose(header);
  if (header === '') return { role: 'blank' };
  if (header.startsWith('#')) return { role: 'comment' };
  if (KEYWORD_HEADERS.has(key)) return { role: 'keyword' };
  if (key === 'slug') return { role: 'slug' };
  if (key === 'draft') return { role: 'site', name: 'draft' };
  if (key === 'publishdate') return { role: 'site', name: 'publishDate' };
  const data = /^data\.(.+)$/i.exec(header.trim());
  if (data !== null) return { role: 'site', name: `data.${data[1]!.trim()}` };
  const name = COLUMN_NAMES.find((candidate) => loose(candidate) === key);
  if (name) return { role: 'parameter', name };
  if (key === 'languages') return { role: 'languages' };
  return perLanguageColumn(header.trim()) ?? { role: 'unknown' };
}

/** `keyword.German`, `title.German`, `locale.Klingon`: one language's value of a field (see `manifest/languages.ts`). */
function perLanguageColumn(header: string): Column | undefined {
  const dot = header.indexOf('.');
  if (dot <= 0 || header.slice(dot + 1).trim() === '') return undefined;
  const outer = loose(header.slice(0, dot));
  const field = KEYWORD_HEADERS.has(outer) ? 'keyword' : ['slug', 'locale'].includes(outer) ? outer : ALL_PARAMETER_NAMES.find((candidate) => loose(candidate) === outer);
  return field === undefined ? undefined : { role: 'perLanguage', name: `${field}.${header.slice(dot + 1).trim()}`, field };
}

function loose(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, '');
}

/**
 * Excel's `sep=;` first line names the delimiter (`sep=,`, `sep=|`, a tab, or `\t` as two
 * characters; some tools quote the line); it is not a row (it is blanked, so line numbers stay as
 * in the file). Otherwise the delimiter used most in the header line outside quotes: `,`, or `;`
 * (spreadsheets in many locales), or a tab.
 */
function delimiterOf(text: string): { delimiter: string; text: string } {
  const sep = /^("?)sep=(\\t|[^\n"])\1[ \t]*(?=\n|$)/i.exec(text);
  if (sep !== null) return { delimiter: sep[2] === '\\t' ? '\t' : sep[2]!, text: text.slice(sep[0].length) };
  return { delimiter: detectDelimiter(text), text };
}

function detectDelimiter(text: string): string {
  const header = text.split('\n').find((line) => line.trim() !== '')?.replace(/"[^"]*"/g, '') ?? '';
  let best: string = ',';
  let bestCount = 0;
  for (const delimiter of DELIMITERS) {
    const count = header.split(delimiter).length - 1;
    if (count > bestCount) [best, bestCount] = [delimiter, count];
  }
  return best;
}

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

/**
 * A cell as the value its parameter expects. A cell that does not fit stays text, so the schema
 * reports it with the parameter's name ("must be true or false, not the text "maybe"").
 */
function typedCell(name: string, cell: string): { value: unknown } | { error: string } {
  const kind = parameterKind(name);
  if (kind === 'boolean') {
    const word = cell.toLowerCase();
    if (TRUE_WORDS.has(word)) return { value: true };
    if (FALSE_WORDS.has(word)) return { value: false };
    return { value: cell };
  }
  if (kind === 'number') return { value: /^[+-]?\d+(\.\d+)?$/.test(cell) ? Number(cell) : cell };
  if (kind === 'list' || kind === 'object') {
    if (cell.startsWith('[') || cell.startsWith('{')) {
      try {
        return { value: JSON.parse(cell) as unknown };
      } catch {
        return { error: `starts with "${cell[0]}" but is not valid JSON; fix the JSON, or for a list write the items separated by "${CSV_LIST_SEPARATOR}"` };
      }
    }
    if (kind === 'list') {
      return {
        value: cell
          .split(CSV_LIST_SEPARATOR)
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      };
    }
  }
  return { value: cell };
}

/** A `draft` cell as a boolean when it is one of the boolean words; everything else as written (checked with the site fields). */
function siteCell(name: string, cell: string): unknown {
  if (name !== 'draft') return cell;
  const word = cell.toLowerCase();
  return TRUE_WORDS.has(word) ? true : FALSE_WORDS.has(word) ? false : cell;
}

function setField(target: Record<string, unknown>, name: string, value: unknown): void {
  const dot = name.indexOf('.');
  if (dot === -1) {
    target[name] = value;
    return;
  }
  const outer = name.slice(0, dot);
  const inner = (target[outer] ??= {}) as Record<string, unknown>;
  inner[name.slice(dot + 1)] = value;
}

// csv-parse notices an unclosed quote only at the end of the file; the line worth showing is where it opened.
function unclosedQuoteLine(text: string): number {
  let opened = -1;
  for (let index = text.indexOf('"'); index !== -1; index = text.indexOf('"', index + 1)) opened = opened === -1 ? index : -1;
  return text.slice(0, Math.max(opened, 0)).split('\n').length;
}

function csvErrorMessage(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'invalid CSV: a quoted cell is never closed; add the closing "';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'invalid CSV: a quote inside a cell; double it ("") and quote the whole cell';
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'invalid CSV: text after a closing quote; quote the whole cell, with inner quotes doubled ("")';
    default:
      return `invalid CSV: ${error.message}`;
  }
}

type CsvRecord = { record: string[]; info: { lines: number } };

/** The records of the CSV body, or the parse problem with the line worth showing. */
function parseRecords(text: string, body: string, delimiter: string, file: string): CsvRecord[] | ManifestProblem {
  try {
    return parse(body, { delimiter, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as CsvRecord[];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = error.code === 'CSV_QUOTE_NOT_CLOSED' ? unclosedQuoteLine(text) : (error as CsvError & { lines?: number }).lines;
    return { file, ...(line ? { line } : {}), section: 'file', message: csvErrorMessage(error) };
  }
}

/** The line a record starts on: csv-parse reports the line it ends on, and a quoted cell may span lines. */
function firstLine({ record, info }: CsvRecord): number {
  return info.lines - record.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);
}

/** One CSV manifest being read: its problems, and where each row and cell was, for `locate` and `literal`. */
class CsvReading {
  readonly problems: ManifestProblem[] = [];
  readonly rowLines: number[] = [];
  readonly rowCells: string[][] = [];
  /** The column of each field (`keyword`, `slug`, a parameter), the first one where a field is given twice. */
  readonly columnOf = new Map<string, number>();
  columns: Column[] = [];
  header: string[] = [];
  headerLine = 1;
  keywordColumn = -1;

  constructor(
    readonly file: string,
    readonly delimiter: string,
  ) {}

  document(data: unknown): ManifestDocument {
    const locate = (path: DataPath) => {
      const line = path[0] === 'articles' && typeof path[1] === 'number' ? this.rowLines[path[1]] : undefined;
      return line === undefined ? undefined : { line };
    };
    const literal = (path: DataPath) => {
      const column = this.columnOf.get(path.slice(2).join('.'));
      return typeof path[1] === 'number' && column !== undefined ? this.rowCells[path[1]]?.[column] : undefined;
    };
    return { format: 'csv', data, locate, literal, problems: this.problems };
  }

  headerProblem(field: string, message: string): void {
    this.problems.push({ file: this.file, line: this.headerLine, section: 'header', field, message });
  }

  /** Reads the header row; false when it has no keyword column (never guessed: a first column of search volumes would become paid articles named "2400"). */
  readHeader(headerRecord: CsvRecord | undefined): boolean {
    this.header = headerRecord?.record ?? [];
    // Blank lines may come before the header.
    this.headerLine = headerRecord ? firstLine(headerRecord) : 1;
    this.columns = this.header.map(classify);
    this.keywordColumn = this.columns.findIndex((column) => column.role === 'keyword');
    if (this.keywordColumn === -1) {
      const found = this.header.length === 0 ? 'none' : this.header.map((cell) => (cell === '' ? '(blank)' : JSON.stringify(cell))).join(', ');
      this.headerProblem('keyword', `no column is named "keyword" (the columns are ${found}); name the column that holds the keywords "keyword" (or "targetKeyword")`);
      return false;
    }
    const seen = new Map<string, string>();
    this.columns.forEach((column, index) => this.readColumn(column, this.header[index] ?? '', index, seen));
    return true;
  }

  private readColumn(column: Column, cell: string, index: number, seen: Map<string, string>): void {
    if (column.role === 'unknown') {
      const suggestion = didYouMean(suggestName(cell, [...COLUMN_NAMES, 'keyword', 'slug', 'draft', 'publishDate']));
      this.headerProblem(cell, `is not a request parameter${suggestion} — rename the column, name it data.${cell.trim() || 'field'} to keep it as your own data on the entry, delete it, or start its header with # to ignore it`);
    }
    if (column.role === 'comment' || column.role === 'blank' || column.role === 'unknown') return;
    const field = column.role === 'parameter' || column.role === 'site' || column.role === 'perLanguage' ? column.name : column.role;
    const earlier = seen.get(field);
    if (earlier !== undefined) this.headerProblem(cell, `is the same field as the column "${earlier}"; keep one of them`);
    else {
      seen.set(field, cell);
      this.columnOf.set(field, index);
    }
  }

  /** Reads one data row into an entry; `blankWithValues` collects the header-less columns that hold values. */
  readRow(row: CsvRecord, index: number, blankWithValues: Set<number>): Record<string, unknown> {
    const { record } = row;
    const line = firstLine(row);
    this.rowLines.push(line);
    this.rowCells.push(record);
    const keyword = record[this.keywordColumn];
    const rowProblem = (field: string | undefined, message: string) =>
      this.problems.push({ file: this.file, line, section: 'articles', index, ...(keyword ? { keyword } : {}), ...(field ? { field } : {}), message });
    const shape = this.rowShapeProblem(record);
    if (shape !== undefined) rowProblem(undefined, shape);
    if (keyword !== undefined && /^[+-]?[\d.,\s]+%?$/.test(keyword) && /\d/.test(keyword)) {
      rowProblem('keyword', `is only a number (${JSON.stringify(keyword)}), which is no keyword: is the header on the right column (not the search volume)? A keyword that really is a number needs a word with it`);
    }
    const entry: Record<string, unknown> = {};
    record.forEach((cell, column) => {
      const spec = this.columns[column];
      if (cell === '' || spec === undefined) return; // an empty cell leaves the parameter to its default
      if (spec.role === 'blank') blankWithValues.add(column);
      else if (spec.role === 'keyword' && column === this.keywordColumn) entry.keyword = cell;
      else if (spec.role === 'slug' && column === this.columnOf.get('slug')) entry.slug = cell;
      else if (spec.role === 'site' && column === this.columnOf.get(spec.name)) setField(entry, spec.name, siteCell(spec.name, cell));
      else if (spec.role === 'languages' && column === this.columnOf.get('languages')) entry.languages = cell;
      else if (spec.role === 'perLanguage' && column === this.columnOf.get(spec.name)) {
        const typed = spec.field === 'keyword' || spec.field === 'slug' || spec.field === 'locale' ? { value: cell } : typedCell(spec.field, cell);
        if ('error' in typed) rowProblem(spec.name, typed.error);
        else entry[spec.name] = typed.value;
      }
      else if (spec.role === 'parameter' && column === this.columnOf.get(spec.name)) {
        const typed = typedCell(spec.name, cell);
        if ('error' in typed) rowProblem(spec.name, typed.error);
        else setField(entry, spec.name, typed.value);
      }
    });
    entry.keyword ??= '';
    return entry;
  }

  /** A row with more or fewer cells than the header. */
  private rowShapeProblem(record: string[]): string | undefined {
    const { delimiter, header } = this;
    const shownDelimiter = delimiter === '\t' ? 'tab' : `"${delimiter}"`;
    if (record.slice(header.length).some((cell) => cell !== '')) {
      return `has ${record.length} cells but the header has ${header.length}; quote any cell that contains ${delimiter === '\t' ? 'a tab' : shownDelimiter}, or add a header for the extra column`;
    }
    if (record.length < header.length) {
      return `has ${record.length === 1 ? '1 cell' : `${record.length} cells`} but the header has ${header.length}; a ${shownDelimiter} is missing, or a cell holding a line break is not quoted`;
    }
    return undefined;
  }
}

/** Reads CSV text (BOM already removed) into `{ articles: [...] }` and the line of each row. */
export function readCsvManifest(source: string, file: string): ManifestDocument {
  const text = source.replace(/\r\n?/g, '\n');
  const { delimiter, text: body } = delimiterOf(text);
  const reading = new CsvReading(file, delimiter);
  const records = parseRecords(text, body, delimiter, file);
  if (!Array.isArray(records)) {
    reading.problems.push(records);
    return reading.document(undefined);
  }
  const [headerRecord, ...rows] = records;
  if (!reading.readHeader(headerRecord)) return reading.document(undefined);
  const blankWithValues = new Set<number>();
  const articles: Record<string, unknown>[] = [];
  for (const row of rows) {
    if (row.record.every((cell) => cell === '')) continue; // a row of bare delimiters, as spreadsheets leave behind
    articles.push(reading.readRow(row, articles.length, blankWithValues));
  }
  for (const column of blankWithValues) {
    reading.headerProblem(`column ${column + 1}`, 'has no header but holds values; give it a parameter name as header, or delete the column');
  }
  return reading.document({ articles });
}
