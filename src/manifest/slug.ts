// Article slugs: derived from the keyword (never the title, so a new title keeps the URL), and checked to be safe as a URL segment and a file name.
import slugify from '@sindresorhus/slugify';
import { brokenOrHidden } from './text-hygiene.js';

/** Longest slug, in characters. */
export const MAX_SLUG_LENGTH = 200;
/** Longest slug in UTF-8 bytes: file systems cap a name at 255 bytes, and Astro writes `<slug>.html` or `<slug>/index.html`. */
export const MAX_SLUG_BYTES = 250;

/**
 * Device names Windows cannot create as files, with or without an extension: a checkout or build
 * there would break. (`index` is refused too: it would overwrite the collection's index page when
 * pages are written as files, `build.format: 'file'`.)
 */
const WINDOWS_DEVICE_NAMES = new Set([
  'con',
  'prn',
  'aux',
  'nul',
  ...Array.from({ length: 10 }, (_, i) => `com${i}`),
  ...Array.from({ length: 10 }, (_, i) => `lpt${i}`),
]);

const SLUGIFY_OPTIONS = { decamelize: false } as const; // "iPhone" → "iphone", not "i-phone"

const noLatinSpelling = new Map<string, boolean>();

// A letter outside the Latin script that transliterates to nothing (Japanese, Chinese, Korean,
// Thai, Devanagari, …). Cached: a manifest repeats the same few characters many times.
export function hasNoLatinSpelling(character: string): boolean {
  let answer = noLatinSpelling.get(character);
  if (answer === undefined) {
    answer = !/\p{Script=Latin}/u.test(character) && slugify(character, SLUGIFY_OPTIONS) === '';
    noLatinSpelling.set(character, answer);
  }
  return answer;
}

/**
 * The scripts whose transliteration a reader can read: alphabets written with their vowels, which
 * `@sindresorhus/slugify` spells letter for letter (`Москва отели` → `moskva-oteli`, `Ελληνικός
 * καφές` → `ellinikos-kafes`). Every other script of the locale table is kept as written by
 * default: the abjads (Arabic, Persian, Urdu, Hebrew) lose their vowels (`قهوة بالتقطير` →
 * `qhwt-baltqtyr`), and Devanagari, Bengali, Tamil, Telugu, Thai, Chinese, Japanese and Korean
 * transliterate to nothing. docs/languages.md gives the rule per script; a test checks each.
 */
const READABLE_TRANSLITERATION = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]$/u;

/**
 * How a derived slug spells a keyword's letters:
 * - `readable` (the default): transliterated when every letter is in a script of
 *   READABLE_TRANSLITERATION, else kept as written;
 * - `transliterate` (a translation's, with `translations.slugs: transliterate`): transliterated
 *   wherever the library spells every letter (Arabic too), kept as written where it spells none;
 * - `unicode` (with `translations.slugs: unicode`): every script kept as written.
 */
export type SlugSpelling = 'readable' | 'transliterate' | 'unicode';

function transliterates(letter: string, spelling: SlugSpelling): boolean {
  if (spelling === 'unicode') return false;
  return READABLE_TRANSLITERATION.test(letter) || (spelling === 'transliterate' && !hasNoLatinSpelling(letter));
}

/**
 * Words of ASCII letters and digits, one space or hyphen between them: the slug `@sindresorhus/slugify` makes of such a
 * keyword (nothing to transliterate, normalise or replace) is the keyword lower-cased, with its spaces as hyphens. Made
 * here without the library's tables and passes, which were most of a 10,000-keyword manifest's resolution (a test holds
 * the two equal).
 */
const PLAIN_KEYWORD = /^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/;

/**
 * The slug for a keyword.
 *
 * - When every letter transliterates (see SlugSpelling), the keyword is transliterated and
 *   lower-cased by `@sindresorhus/slugify`: `Größe Schuhe für Männer` → `groesse-schuhe-fuer-maenner`,
 *   `Москва отели` → `moskva-oteli`.
 * - Otherwise the slug keeps every letter, mark and digit as written (NFKC-normalised,
 *   lower-cased where the script has case) and joins runs of anything else with `-`:
 *   `東京 ラーメン おすすめ` → `東京-ラーメン-おすすめ`, `قهوة بالتقطير` → `قهوة-بالتقطير`. Browsers show such
 *   paths as written; they travel percent-encoded.
 *
 * The slug depends on the keyword only, so it stays when the title or any other parameter changes.
 * Returns '' when the keyword has nothing to make a slug from (e.g. `!!!`).
 */
export function deriveSlug(keyword: string, options: { spelling?: SlugSpelling } = {}): string {
  if (PLAIN_KEYWORD.test(keyword)) return keyword.toLowerCase().replaceAll(' ', '-');
  const normalized = keyword.normalize('NFKC');
  const letters = normalized.match(/\p{L}/gu) ?? [];
  const spelling = options.spelling ?? 'readable';
  if (letters.every((letter) => transliterates(letter, spelling))) return slugify(normalized, SLUGIFY_OPTIONS);
  return slugAsWritten(normalized);
}

/** Letters, marks and digits as written, lower-cased, runs of anything else as one `-`. */
export function slugAsWritten(normalized: string): string {
  return normalized
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why `slug` is not safe to use as a URL path segment and a file name, with what to do — or
 * undefined when it is safe.
 *
 * A slug is safe when it has 1 to 200 characters (at most 250 bytes in UTF-8), is made of
 * letters, marks, digits, `-`, `_` and `.`, starts with a letter or digit, does not end with `.`,
 * has no `..`, and is not a reserved name (`index`, or a Windows device name such as `con`).
 * Upper case is allowed; uniqueness is checked ignoring case (case-insensitive file systems).
 */
export function validateSlug(slug: string): string | undefined {
  if (slug.trim() === '') return 'is empty; remove `slug` to derive one from the keyword, or give a non-empty slug';
  const hidden = brokenOrHidden(slug);
  if (hidden !== undefined) return hidden;
  const length = [...slug].length;
  if (length > MAX_SLUG_LENGTH) return `is ${length} characters long, over the limit of ${MAX_SLUG_LENGTH}; give a shorter slug`;
  const bytes = Buffer.byteLength(slug, 'utf8');
  if (bytes > MAX_SLUG_BYTES) {
    return `is ${bytes} bytes in UTF-8, over the limit of ${MAX_SLUG_BYTES} (a file name holds 255); give a shorter slug`;
  }
  const control = slug.match(/\p{Cc}|\p{Cf}|[\u2028\u2029]/u)?.[0];
  if (control !== undefined) return `contains the invisible control character ${codePoint(control)}; remove it`;
  if (slug.includes('..')) return 'contains "..", which could point outside its folder; remove it';
  if (slug.includes('/')) return 'contains "/", but a slug is one URL path segment; use "-" instead';
  if (slug.includes('\\')) return 'contains "\\", which is a path separator on Windows; use "-" instead';
  if (/\s/u.test(slug)) return 'contains whitespace; use "-" between words';
  if (slug.startsWith('.')) return 'starts with ".", which makes a hidden file; remove the dot';
  if (!/^[\p{L}\p{N}]/u.test(slug)) return 'must start with a letter or a digit';
  if (slug.endsWith('.')) return 'ends with ".", which Windows drops from file names; remove the dot';
  const other = slug.match(/[^\p{L}\p{M}\p{N}._-]/u)?.[0];
  if (other !== undefined) return `contains "${other}", which is not allowed; use only letters, digits, "-", "_" and "."`;
  if (slug.toLowerCase() === 'index') return 'is reserved: it would overwrite the collection\'s index page; choose another slug';
  const base = slug.toLowerCase().split('.')[0] ?? '';
  if (WINDOWS_DEVICE_NAMES.has(base)) return `is reserved: "${base}" is a device name Windows cannot use as a file name; choose another slug`;
  return undefined;
}

/** Slugs that are the same for a case-insensitive file system or URL router. */
export function slugIdentity(slug: string): string {
  return slug.normalize('NFC').toLowerCase();
}

/** Keywords that mean the same: case, Unicode width forms and spacing ignored. */
export function keywordIdentity(keyword: string): string {
  return keyword.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}
