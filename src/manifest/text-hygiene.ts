// Text that is sent to the service and shown on the site: well-formed, no hidden characters, one line where one line is meant, and a keyword no spreadsheet would run.
import type { DataPath } from './manifest-document.js';

/**
 * What a string is, which decides what it may hold:
 * - `keyword`: one line, no invisible characters at all, and no formula-like start;
 * - `url`: one line, no invisible characters (a URL parser would quietly percent-encode them);
 * - `line`: one line of text (a title, a language, an outline section, an id);
 * - `prose`: free text sent as instructions (the `extra…Prompt` fields, `polishCustomInstructions`),
 *   where tabs and line breaks are legitimate: `extraOutlinePrompt` is one section per line, indented.
 */
export type TextKind = 'keyword' | 'url' | 'line' | 'prose';

const PROSE_FIELDS = new Set([
  'polishCustomInstructions',
  'extraTitlePrompt',
  'extraSectionPrompt',
  'extraIntroductionPrompt',
  'extraEntitiesPrompt',
  'extraOutlinePrompt',
]);
const URL_FIELDS = new Set(['urls', 'webhookUrl', 'videoUrl', 'articleUrl', 'productSearchUrl']);

/** The kind of the string at `path` inside a request parameter (`['outline', 0, 'title']`). */
export function textKindAt(path: DataPath): TextKind {
  const field = String(path[0]);
  if (PROSE_FIELDS.has(field)) return 'prose';
  return URL_FIELDS.has(field) ? 'url' : 'line';
}

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag: it would pair them). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Characters that reorder how text is displayed ("Trojan Source"): what a reader sees is not what is sent. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/**
 * Hidden text anywhere: a BOM inside the text (left where files were joined), and Unicode "tag"
 * characters, which smuggle invisible instructions to the AI that writes the article. Tags are
 * legitimate only in the flag emoji of a region (🏴 + tags + cancel tag), which are removed first.
 */
const HIDDEN_ANYWHERE = /[\uFEFF\u{E0000}-\u{E007F}]/u;
const REGION_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;
/**
 * Invisible characters with no place in a keyword or a URL: zero-width space, word joiner,
 * invisible operators, soft hyphen, Mongolian vowel separator, Hangul fillers. (Thai, Khmer or
 * Burmese prose may use a zero-width space between words, and a title a soft hyphen, so other
 * text may hold them.)
 */
const INVISIBLE = /[\u200B\u2060-\u2064\u00AD\u180E\u3164\uFFA0]/u;
/** Joiners, legitimate between the letters of scripts that need them (Persian, Indic, emoji sequences), never next to plain ASCII or at an edge. */
const MISPLACED_JOINER = /(?:^|[\x00-\x7F])[\u200C\u200D]|[\u200C\u200D](?:$|[\x00-\x7F])/u;
/** Combining marks on one letter beyond what any script writes (Vietnamese, Devanagari, Thai and Tibetan stay at or under it). */
export const MAX_COMBINING_RUN = 5;
const COMBINING_RUN = new RegExp(`\\p{M}{${MAX_COMBINING_RUN + 1},}`, 'u');
/** Line breaks of every kind, for text that is one line. */
const LINE_BREAK = /[\n\r\u000B\u000C\u0085\u2028\u2029]/u;
/** C0 and C1 control characters other than tab, line feed, carriage return and next line, which prose may hold. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F]/u;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A lone surrogate: the text was cut in the middle of a character, or decoded with the wrong encoding. */
function brokenCharacter(text: string): string | undefined {
  const char = LONE_SURROGATE.exec(text)?.[0];
  if (char !== undefined) {
    return `contains a broken character (a lone UTF-16 surrogate, ${codePoint(char)}), which the service cannot read; the file was damaged or saved with a wrong encoding: retype the text`;
  }
  if (text.includes('\uFFFD')) {
    return 'contains U+FFFD (�), the mark left where a character was lost to a wrong encoding; retype the text, and save the file as UTF-8';
  }
  return undefined;
}

function hiddenCharacter(text: string): string | undefined {
  const bidi = BIDI_CONTROL.exec(text)?.[0];
  if (bidi !== undefined) return `contains the invisible bidirectional control ${codePoint(bidi)}, which changes how the text is displayed, so what you read is not what is sent; delete it (retype the text if you cannot see it)`;
  const hidden = HIDDEN_ANYWHERE.exec(text.replace(REGION_FLAG, ''))?.[0];
  if (hidden === undefined) return undefined;
  if (hidden === '\uFEFF') return 'contains U+FEFF (a byte-order mark) inside the text, where it is an invisible leftover of joined files; delete it (retype the text if you cannot see it)';
  return `contains the invisible tag character ${codePoint(hidden)}, which can hide instructions from you that the service would read; delete it (retype the text if you cannot see it)`;
}

/**
 * A broken character (a lone surrogate, or U+FFFD), a bidi control, a BOM inside the text, or a tag
 * character: what every string is checked for, a slug included (its own rules then refuse the rest).
 */
export function brokenOrHidden(text: string): string | undefined {
  return brokenCharacter(text) ?? hiddenCharacter(text);
}

function controlCharacter(text: string, kind: TextKind): string | undefined {
  const what = kind === 'keyword' ? 'a keyword' : kind === 'url' ? 'a URL' : 'this field';
  if (kind !== 'prose') {
    if (LINE_BREAK.test(text)) return `contains a line break, but ${what} is one line of text; join the lines`;
    if (text.includes('\t')) return `contains a tab; ${what} is one line of text: replace the tab with a space`;
  }
  const control = CONTROL.exec(text)?.[0];
  return control === undefined ? undefined : `contains the control character ${codePoint(control)}; delete it (retype the text if you cannot see it)`;
}

function invisibleCharacter(text: string): string | undefined {
  const invisible = INVISIBLE.exec(text)?.[0] ?? MISPLACED_JOINER.exec(text)?.[0]?.replace(/[\x00-\x7F]/g, '');
  if (invisible === undefined) return undefined;
  return `contains the invisible character ${codePoint(invisible)} (a zero-width or formatting character); delete it (retype the text if you cannot see it)`;
}

function combiningPile(text: string): string | undefined {
  const run = COMBINING_RUN.exec(text)?.[0];
  if (run === undefined) return undefined;
  return `has ${[...run].length} combining marks on one letter (more than ${MAX_COMBINING_RUN}, as in "Zalgo" text); write it in plain letters`;
}

/** A keyword a spreadsheet would run as a formula when a list of keywords is opened there (CSV injection). */
function formulaLike(keyword: string): string | undefined {
  if (!/^[=+@]/.test(keyword) && !/^-\p{L}/u.test(keyword)) return undefined;
  return `starts with "${keyword[0]}", so a spreadsheet would run it as a formula when the keywords are opened there; rephrase it to start with a letter or a digit`;
}

/**
 * Why `text` cannot be sent as it is, or undefined. Every kind: a broken character (a lone
 * surrogate, or U+FFFD left by a wrong decoding), a bidi control, a BOM inside the text, Unicode
 * tag characters, a control character, and more than {@link MAX_COMBINING_RUN} combining marks on
 * one letter ("Zalgo" text, paid for like any article). All but `prose`: tabs and line breaks.
 * Keywords and URLs: zero-width and other invisible characters. Keywords: a leading `=`, `+`, `@`,
 * or `-` before a letter. The caller trims keywords first: a tab before `=` is no escape.
 */
export function textProblem(text: string, kind: TextKind): string | undefined {
  const problem = brokenOrHidden(text) ?? controlCharacter(text, kind);
  if (problem !== undefined) return problem;
  if (kind === 'keyword' || kind === 'url') {
    const invisible = invisibleCharacter(text);
    if (invisible !== undefined) return invisible;
  }
  return combiningPile(text) ?? (kind === 'keyword' ? formulaLike(text) : undefined);
}

/** Why a keyword (trimmed) cannot be sent as it is, or undefined; see {@link textProblem}. */
export function keywordTextProblem(keyword: string): string | undefined {
  return textProblem(keyword, 'keyword');
}

/**
 * Problems of every string inside a request parameter's value, nested ones included (outline
 * sections, URLs, prompts), and of the names in its mappings, which are sent too. `path` is where
 * `value` is, starting with the parameter's name, which decides the kind of text; each problem
 * names its own path. One-line fields are checked without their outer whitespace, which the
 * request schema trims.
 */
export function textValueProblems(value: unknown, path: DataPath): { path: DataPath; message: string }[] {
  if (typeof value === 'string') {
    const kind = textKindAt(path);
    const message = textProblem(kind === 'line' ? value.trim() : value, kind);
    return message === undefined ? [] : [{ path, message }];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => textValueProblems(item, [...path, index]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => {
      const name = textProblem(key, 'line');
      const own = name === undefined ? [] : [{ path: [...path, key], message: `the name ${JSON.stringify(key)} ${name}` }];
      return [...own, ...textValueProblems(item, [...path, key])];
    });
  }
  return [];
}
