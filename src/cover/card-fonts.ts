// Which font sets each letter of a card: the font package of each script (Inter for Latin, Cyrillic, Greek and Vietnamese; Noto for the others), their Unicode ranges, and what a text needs that is not installed.
//
// Reads only package.json and unicode.json files (never a font, never the canvas): the cache key of a
// warm build comes from here, so a build whose cards are all in the cache pays a few small reads.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** One font package: the letters it is for, whether the loader depends on it or the owner installs it, and where its files are. */
export interface FontPackage {
  name: string;
  /** The script(s) as a warning names them. */
  label: string;
  /** `dependency`: installed with the loader; `optional`: the owner installs it (a CJK font is 4-6 MB, emoji 11 MB). */
  install: 'dependency' | 'optional';
  /** The letters it is the font for: a letter none of the installed fonts covers is said missing in the first package it matches. */
  letters: RegExp;
  /** The package.json path; a literal `resolve` per package, so the package check sees each font package used. */
  locate: () => string;
  /** The file of one of its subsets (`latin`, or `56` for the numbered slices of a CJK font). */
  file: (subset: string) => string;
}

const variable = (id: string) => (subset: string) => `files/${id}-${subset}-wght-normal.woff2`;

/** Latin first (its digits and punctuation win in every title), the scripts the loader installs, then the optional fonts. */
export const FONT_PACKAGES: readonly FontPackage[] = [
  { name: '@fontsource-variable/inter', label: 'Latin, Cyrillic, Greek and Vietnamese', install: 'dependency', letters: /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u, locate: () => require.resolve('@fontsource-variable/inter/package.json'), file: variable('inter') },
  { name: '@fontsource-variable/noto-sans-arabic', label: 'Arabic (Arabic, Persian, Urdu)', install: 'dependency', letters: /\p{Script=Arabic}/u, locate: () => require.resolve('@fontsource-variable/noto-sans-arabic/package.json'), file: variable('noto-sans-arabic') },
  { name: '@fontsource-variable/noto-sans-hebrew', label: 'Hebrew', install: 'dependency', letters: /\p{Script=Hebrew}/u, locate: () => require.resolve('@fontsource-variable/noto-sans-hebrew/package.json'), file: variable('noto-sans-hebrew') },
  { name: '@fontsource-variable/noto-sans-devanagari', label: 'Devanagari', install: 'dependency', letters: /\p{Script=Devanagari}/u, locate: () => require.resolve('@fontsource-variable/noto-sans-devanagari/package.json'), file: variable('noto-sans-devanagari') },
  { name: '@fontsource-variable/noto-sans-bengali', label: 'Bengali', install: 'dependency', letters: /\p{Script=Bengali}/u, locate: () => require.resolve('@fontsource-variable/noto-sans-bengali/package.json'), file: variable('noto-sans-bengali') },
  { name: '@fontsource-variable/noto-sans-thai', label: 'Thai', install: 'dependency', letters: /\p{Script=Thai}/u, locate: () => require.resolve('@fontsource-variable/noto-sans-thai/package.json'), file: variable('noto-sans-thai') },
  { name: '@fontsource-variable/noto-sans-jp', label: 'Japanese', install: 'optional', letters: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u, locate: () => require.resolve('@fontsource-variable/noto-sans-jp/package.json'), file: variable('noto-sans-jp') },
  { name: '@fontsource-variable/noto-sans-kr', label: 'Korean', install: 'optional', letters: /[\p{Script=Hangul}\p{Script=Han}]/u, locate: () => require.resolve('@fontsource-variable/noto-sans-kr/package.json'), file: variable('noto-sans-kr') },
  { name: '@fontsource-variable/noto-sans-sc', label: 'Simplified Chinese', install: 'optional', letters: /[\p{Script=Han}\p{Script=Bopomofo}]/u, locate: () => require.resolve('@fontsource-variable/noto-sans-sc/package.json'), file: variable('noto-sans-sc') },
  { name: '@fontsource-variable/noto-sans-tc', label: 'Traditional Chinese', install: 'optional', letters: /[\p{Script=Han}\p{Script=Bopomofo}]/u, locate: () => require.resolve('@fontsource-variable/noto-sans-tc/package.json'), file: variable('noto-sans-tc') },
  { name: '@fontsource/noto-emoji', label: 'emoji', install: 'optional', letters: /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u, locate: () => require.resolve('@fontsource/noto-emoji/package.json'), file: (subset) => `files/noto-emoji-${subset}-700-normal.woff2` },
];

/** One subset file of a font package, as the canvas registers it (under its own family name). */
export interface FontFace {
  family: string;
  file: string;
}

/** Letters a card cannot set: their script, the package that sets them (none known: undefined) and one of them, for the warning. */
export interface FontNeed {
  script: string;
  package: string | undefined;
  example: string;
}

/** A text as the card sets it: `shown` is the text less what no installed font has; `faces` the subsets it uses, in the order to list them. */
export interface CardText {
  shown: string;
  faces: FontFace[];
  /** The packages it is set in, `name@version`. */
  fonts: string[];
  missing: FontNeed[];
}

interface InstalledFont {
  pkg: FontPackage;
  dir: string;
  version: string;
  /** Subset → its [from, to] code point ranges, from the package's unicode.json. */
  ranges: [string, [number, number][]][];
  /** Subset → its face, made at the first text set in it. */
  faces: Map<string, FontFace>;
}

/** Joiners, variation selectors and bidi marks: no ink of their own, so no font need cover them. */
const IGNORABLE = /^[\p{Default_Ignorable_Code_Point}\s]$/u;
/** Catch-all subsets a text font covers sparsely: a letter in their ranges may not be in the file. */
const SPARSE_SUBSETS = new Set(['math', 'symbols']);
/** Punctuation, digits and marks shared by the scripts; not pictographs from U+2190 on (☕, ♥, 🍰), which only the emoji font sets (© and ™ are Inter's). */
function isShared(letter: string): boolean {
  return /[\p{Script=Common}\p{Script=Inherited}]/u.test(letter) && !(/\p{Extended_Pictographic}/u.test(letter) && letter.codePointAt(0)! >= 0x2190);
}
const EMOJI_PACKAGE = '@fontsource/noto-emoji';
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `U+0600-06FF,U+200C` as ranges. */
function parseRanges(text: string): [number, number][] {
  return text.split(',').map((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, '').split('-');
    return [parseInt(from!, 16), parseInt(to ?? from!, 16)] as [number, number];
  });
}

/** Where an installed package is; undefined when it is not installed. */
export function locateInstalled(pkg: FontPackage): string | undefined {
  try {
    return pkg.locate();
  } catch {
    return undefined;
  }
}

/** The CJK font the locale reads Han in first (a title with kana is Japanese, one with Hangul Korean, when the locale does not say). */
function cjkFirst(text: string, locale: string | undefined): string {
  const tag = (locale ?? '').toLowerCase();
  return tag.startsWith('ja') || (tag === '' && /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) ? 'jp'
    : tag.startsWith('ko') || (tag === '' && /\p{Script=Hangul}/u.test(text)) ? 'kr'
    : /^zh-(hant|tw|hk|mo)/.test(tag) ? 'tc' : 'sc';
}

/** The graphemes of `text`: in printable ASCII each letter is one (segmenting was most of what a cached card cost: 0.9 s for 10,000 titles). */
function graphemesOf(text: string): Iterable<string> {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  return Array.from(graphemes.segment(text), ({ segment }) => segment);
}

/** Each order, by the CJK font it reads Han in first: one array each, so what a letter was found in can be kept per order. */
const orders = new Map<string, readonly FontPackage[]>();

/** The packages in the order a letter of `text` is looked for: Latin, the other scripts, the CJK fonts by locale, emoji. */
export function fontOrder(text: string, locale?: string): readonly FontPackage[] {
  const first = cjkFirst(text, locale);
  let order = orders.get(first);
  if (order === undefined) {
    const cjk = [first, ...['sc', 'tc', 'jp', 'kr'].filter((id) => id !== first)].map((id) => `@fontsource-variable/noto-sans-${id}`);
    const rank = (pkg: FontPackage) => (cjk.includes(pkg.name) ? 100 + cjk.indexOf(pkg.name) : FONT_PACKAGES.indexOf(pkg) + (pkg.name === EMOJI_PACKAGE ? 200 : 0));
    orders.set(first, (order = [...FONT_PACKAGES].sort((a, b) => rank(a) - rank(b))));
  }
  return order;
}

/** A subset of an installed font as the canvas registers it, made once. */
function faceOf(font: InstalledFont, subset: string): FontFace {
  let face = font.faces.get(subset);
  if (face === undefined) font.faces.set(subset, (face = { family: `aal ${font.pkg.name} ${subset}`, file: join(font.dir, font.pkg.file(subset)) }));
  return face;
}

/** The package a letter no installed font has would be set in: the first of the order whose script it is. */
function needOf(letter: string, order: readonly FontPackage[]): FontNeed {
  const pkg = order.find((candidate) => candidate.letters.test(letter));
  const codePoint = `U+${letter.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return pkg === undefined ? { script: `the script of ${codePoint}`, package: undefined, example: letter } : { script: pkg.label, package: pkg.name, example: letter };
}

/**
 * The installed font packages, located once (a test passes its own `locate` to leave one out), and
 * the fonts of each text a card shows: each grapheme is set in the first font in order that has all
 * its letters, or left out and said missing.
 */
export class CardFonts {
  readonly #locate: (pkg: FontPackage) => string | undefined;
  readonly #installed = new Map<string, InstalledFont | null>();
  readonly #versions = new Map<string, string>();
  readonly #found = new Map<readonly FontPackage[], Map<number, [InstalledFont, string] | 'ignorable' | null>>();
  /** Per order: the one subset of one font every printable ASCII letter is set in, else null (see `#asciiSetting`). */
  readonly #ascii = new Map<readonly FontPackage[], { faces: FontFace[]; fonts: string[] } | null>();

  constructor(locate: (pkg: FontPackage) => string | undefined = locateInstalled) {
    this.#locate = locate;
  }

  /** Every font package's version, or `missing`: in every card's key, so a card drawn without a font is drawn again once it is there. */
  versions(): Record<string, string> {
    return Object.fromEntries(FONT_PACKAGES.map((pkg) => [pkg.name, this.#version(pkg)]));
  }

  #version(pkg: FontPackage): string {
    let version = this.#versions.get(pkg.name);
    if (version === undefined) {
      const file = this.#locate(pkg);
      version = file === undefined ? 'missing' : String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version ?? '?');
      this.#versions.set(pkg.name, version);
    }
    return version;
  }

  /** The package's ranges, read at the first text that may need it. */
  #font(pkg: FontPackage): InstalledFont | null {
    let font = this.#installed.get(pkg.name);
    if (font !== undefined) return font;
    const file = this.#locate(pkg);
    font = null;
    if (file !== undefined) {
      const dir = dirname(file);
      const subsets = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
      const ranges = Object.entries(subsets).filter(([subset]) => !SPARSE_SUBSETS.has(subset)).map(([subset, text]) => [subset.replace(/^\[(\d+)\]$/, '$1'), parseRanges(text)] as [string, [number, number][]]);
      font = { pkg, dir, version: this.#version(pkg), ranges, faces: new Map() };
    }
    this.#installed.set(pkg.name, font);
    return font;
  }

  /**
   * The installed font and subset that has `codePoint`, first in `order`; `ignorable` for a letter with no ink; undefined
   * when no installed font has it. Looked for once per letter and order (a site's titles share most letters).
   */
  #find(codePoint: number, order: readonly FontPackage[]): [InstalledFont, string] | 'ignorable' | undefined {
    let found = this.#found.get(order);
    if (found === undefined) this.#found.set(order, (found = new Map()));
    let hit = found.get(codePoint);
    if (hit === undefined) found.set(codePoint, (hit = IGNORABLE.test(String.fromCodePoint(codePoint)) ? 'ignorable' : (this.#look(codePoint, order) ?? null)));
    return hit ?? undefined;
  }

  #look(codePoint: number, order: readonly FontPackage[]): [InstalledFont, string] | undefined {
    const letter = String.fromCodePoint(codePoint);
    // Fontsource's ranges say which file to read, not which letters a font has (the CJK fonts' slices list Arabic letters): a
    // font sets the letters of its script, and punctuation and digits; emoji come from the emoji font. A font's ranges are
    // read only when a letter is not in the fonts before it: a Latin title reads Inter's alone.
    const shared = isShared(letter);
    for (const pkg of order) {
      if (!shared && !pkg.letters.test(letter)) continue;
      const font = this.#font(pkg);
      const subset = font?.ranges.find(([, ranges]) => ranges.some(([from, to]) => codePoint >= from && codePoint <= to))?.[0];
      if (font !== null && font !== undefined && subset !== undefined) return [font, subset];
    }
    return undefined;
  }

  /** `text` as the card sets it, for a title in `locale` (which tells Chinese from Japanese Han). */
  text(text: string, locale?: string): CardText {
    const order = fontOrder(text, locale);
    // Printable ASCII with some ink, all of it in one subset: set as every such text is, without a look per letter.
    const ascii = /^[\x20-\x7e]+$/.test(text) && /[^ ]/.test(text) ? this.#asciiSetting(order) : null;
    if (ascii !== null) return { shown: text.replace(/\s+/g, ' ').trim(), faces: [...ascii.faces], fonts: [...ascii.fonts], missing: [] };
    const used = new Map<InstalledFont, Set<string>>();
    const missing = new Map<string, FontNeed>();
    let shown = '';
    let lackingShared: FontNeed | undefined;
    for (const segment of graphemesOf(text)) {
      const lacking = this.#fontsOf(segment, order);
      // A grapheme is drawn whole or left out whole: half an emoji sequence or a letter without its mark would be wrong.
      if (lacking !== undefined) {
        const need = needOf(lacking, order);
        // A shared sign (the kana ー, a CJK comma) is said only when no letter is: the letters' font has it.
        if (isShared(lacking)) lackingShared ??= need;
        else if (!missing.has(need.package ?? '')) missing.set(need.package ?? '', need);
        continue;
      }
      shown += segment;
      this.#fontsOf(segment, order, used);
    }
    if (missing.size === 0 && lackingShared !== undefined) missing.set(lackingShared.package ?? '', lackingShared);
    const fonts = [...used.keys()].sort((a, b) => order.indexOf(a.pkg) - order.indexOf(b.pkg));
    const faces = fonts.flatMap((font) => [...used.get(font)!].map((subset) => faceOf(font, subset)));
    return { shown: shown.replace(/\s+/g, ' ').trim(), faces, fonts: fonts.map((font) => `${font.pkg.name}@${font.version}`), missing: [...missing.values()] };
  }

  /**
   * What a text of printable ASCII is set in when every letter of U+0021-007E is in the same subset of the same font (Inter's
   * `latin`, where it is installed): that face and font, as the look per letter would find them; null when they differ or one
   * is missing, and such a text is looked at letter by letter. Per-letter looks were most of what a cached card cost (0.14 s
   * of a 10,000-article cold-store load()).
   */
  #asciiSetting(order: readonly FontPackage[]): { faces: FontFace[]; fonts: string[] } | null {
    let setting = this.#ascii.get(order);
    if (setting !== undefined) return setting;
    let first: [InstalledFont, string] | undefined;
    setting = null;
    for (let codePoint = 0x21; codePoint <= 0x7e; codePoint += 1) {
      const hit = this.#find(codePoint, order);
      if (hit === undefined || hit === 'ignorable' || (first !== undefined && (hit[0] !== first[0] || hit[1] !== first[1]))) {
        first = undefined;
        break;
      }
      first = hit;
    }
    if (first !== undefined) setting = { faces: [faceOf(first[0], first[1])], fonts: [`${first[0].pkg.name}@${first[0].version}`] };
    this.#ascii.set(order, setting);
    return setting;
  }

  /**
   * The first letter of a grapheme that no installed font has, if any; with `used`, the font and subset of each of its
   * letters with ink are added to it. Letters are read by index into no list: iterators and a list per grapheme were most
   * of what a cached card cost (35 KB of garbage a title, 0.45 GB in a 10,000-article build's load()).
   */
  #fontsOf(segment: string, order: readonly FontPackage[], used?: Map<InstalledFont, Set<string>>): string | undefined {
    for (let at = 0; at < segment.length; ) {
      const codePoint = segment.codePointAt(at)!;
      const hit = this.#find(codePoint, order);
      if (hit === undefined) return String.fromCodePoint(codePoint);
      if (used !== undefined && hit !== 'ignorable') {
        const subsets = used.get(hit[0]);
        if (subsets === undefined) used.set(hit[0], new Set([hit[1]]));
        else subsets.add(hit[1]);
      }
      at += codePoint > 0xffff ? 2 : 1;
    }
    return undefined;
  }
}
