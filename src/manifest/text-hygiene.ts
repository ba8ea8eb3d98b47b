// Text that is sent to the service and shown on the site: well-formed, no hidden characters, and a keyword no spreadsheet would run.
import type { DataPath } from './manifest-document.js';

/** Characters that reorder how text is displayed ("Trojan Source"): what a reader sees is not what is sent. */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** Invisible characters with no place in a keyword: zero-width space, word joiner, BOM, soft hyphen, Mongolian vowel separator. */
const INVISIBLE = /[\u200B\u2060\uFEFF\u00AD\u180E]/u;
/** Joiners, legitimate between the letters of scripts that need them (Persian, Indic, emoji sequences), never next to plain ASCII or at an edge. */
const MISPLACED_JOINER = /(?:^|[\x00-\x7F])[\u200C\u200D]|[\u200C\u200D](?:$|[\x00-\x7F])/u;
/** Combining marks on one letter beyond what any script writes (Vietnamese, Devanagari and Thai stay well under it). */
const MAX_COMBINING_RUN = 5;
const COMBINING_RUN = new RegExp(`\\p{M}{${MAX_COMBINING_RUN + 1},}`, 'u');
/** A high surrogate not followed by a low one, or a low one not preceded by a high one (no `u` flag: it would pair them). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Control characters a free-text field may not hold (tab, line feed and carriage return may: prompts have lines). */
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A lone surrogate: the text was cut in the middle of a character, or decoded with the wrong encoding. */
function brokenCharacter(text: string): string | undefined {
  const char = LONE_SURROGATE.exec(text)?.[0];
  if (char === undefined) return undefined;
  return `contains a broken character (a lone UTF-16 surrogate, ${codePoint(char)}), which the service cannot read; the file was damaged or saved with a wrong encoding: retype the text`;
}

function hiddenCharacter(text: string): string | undefined {
  const bidi = BIDI_CONTROL.exec(text)?.[0];
  if (bidi !== undefined) return `contains the invisible bidirectional control ${codePoint(bidi)}, which changes how the text is displayed, so what you read is not what is sent; delete it (retype the text if you cannot see it)`;
  return undefined;
}

/**
 * Why a keyword cannot be sent as it is, or undefined. Checked beyond line breaks and control
 * characters (see keywordProblem): broken characters, bidi controls, invisible characters, a pile
 * of combining marks (Zalgo text, paid for like any article), and a leading `=`, `+`, `@` or `-`
 * before a letter, which a spreadsheet opening an export of the keywords would run as a formula.
 */
export function keywordTextProblem(keyword: string): string | undefined {
  const broken = brokenCharacter(keyword) ?? hiddenCharacter(keyword);
  if (broken !== undefined) return broken;
  const invisible = INVISIBLE.exec(keyword)?.[0] ?? MISPLACED_JOINER.exec(keyword)?.[0]?.replace(/[\x00-\x7F]/g, '');
  if (invisible !== undefined) return `contains the invisible character ${codePoint(invisible)} (a zero-width or formatting character); delete it (retype the keyword if you cannot see it)`;
  const run = COMBINING_RUN.exec(keyword)?.[0];
  if (run !== undefined) return `has ${[...run].length} combining marks on one letter (more than ${MAX_COMBINING_RUN}, as in "Zalgo" text); write the keyword in plain letters`;
  if (/^[=+@]/.test(keyword) || /^-\p{L}/u.test(keyword)) {
    return `starts with "${keyword[0]}", so a spreadsheet would run it as a formula when the keywords are opened there; rephrase it to start with a letter or a digit`;
  }
  return undefined;
}

/**
 * Problems of every string inside a request parameter's value (nested ones included: outline
 * sections, URLs, prompts): broken characters, bidi controls, and control characters other than
 * tab and line breaks. `path` is where `value` is; each problem names its own path.
 */
export function textValueProblems(value: unknown, path: DataPath): { path: DataPath; message: string }[] {
  if (typeof value === 'string') {
    const control = CONTROL_IN_TEXT.exec(value)?.[0];
    const message = brokenCharacter(value) ?? hiddenCharacter(value) ?? (control === undefined ? undefined : `contains the control character ${codePoint(control)}; delete it`);
    return message === undefined ? [] : [{ path, message }];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => textValueProblems(item, [...path, index]));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => textValueProblems(item, [...path, key]));
  return [];
}
