// A generated card's cache key: everything its pixels come from (text, locale, colour, size, layout, the canvas's version and the versions of the fonts it is set in, or lacks), so equal keys mean equal files.
import { hash } from 'node:crypto';
import { createRequire } from 'node:module';
import { CardFonts, type CardText } from './card-fonts.js';

/** Bumped whenever the card's layout (card-drawing.ts) changes what it draws. */
export const CARD_LAYOUT_VERSION = 2;

/** What one card shows. */
export interface CardInputs {
  title: string;
  siteName: string;
  /** The article's locale: which CJK font sets Han, and how lines break. */
  locale: string | undefined;
  /** `#rrggbb` or `#rgb`, lower case. */
  color: string;
  width: number;
  height: number;
}

/** The versions of what draws the card: the canvas, and font packages (`missing` when not installed): every one for the entry digest, a card's own for its key. */
export interface CardLibraries {
  canvas: string;
  fonts: Record<string, string>;
}

let canvasVersion: string | undefined;

/**
 * Read from the packages' package.json files (not by importing them: a warm build never loads them).
 * A font installed since the last build changes them, so the cards drawn without it are drawn again.
 */
export function cardLibraries(fonts: CardFonts = new CardFonts()): CardLibraries {
  if (canvasVersion === undefined) {
    try {
      canvasVersion = String((createRequire(import.meta.url)('@napi-rs/canvas/package.json') as { version?: unknown }).version ?? '?');
    } catch {
      canvasVersion = 'missing';
    }
  }
  return { canvas: canvasVersion, fonts: fonts.versions() };
}

/**
 * The font packages `texts` are set in, with their versions, and the ones they lack, as `missing`: a card's
 * part of the fonts. Only these: a committed card of a Latin title stays valid where the CJK fonts are not installed.
 */
export function textFonts(...texts: CardText[]): Record<string, string> {
  // A site's cards are set in a few sets of fonts: each set's part is made once (the sort's locale comparisons were 18 ms of a
  // cold 10,000-article load()). Read only, never changed, so one object serves every card of its set.
  const said = texts.map((text) => `${text.fonts.join('\u0000')}\u0001${text.missing.map((need) => need.package ?? need.script).join('\u0000')}`).join('\u0002');
  let fonts = FONT_SETS.get(said);
  if (fonts === undefined) {
    fonts = fontsOf(texts);
    if (FONT_SETS.size < MAX_FONT_SETS) FONT_SETS.set(said, fonts);
  }
  return fonts;
}

/** The font parts made so far, by the fonts and the lacks of their texts (see `textFonts`): at most MAX_FONT_SETS. */
const FONT_SETS = new Map<string, Record<string, string>>();
const MAX_FONT_SETS = 256;

function fontsOf(texts: readonly CardText[]): Record<string, string> {
  const fonts: Record<string, string> = {};
  for (const text of texts) {
    for (const font of text.fonts) fonts[font.slice(0, font.lastIndexOf('@'))] = font.slice(font.lastIndexOf('@') + 1);
    for (const need of text.missing) fonts[need.package ?? need.script] = 'missing';
  }
  return Object.fromEntries(Object.entries(fonts).sort(([a], [b]) => a.localeCompare(b)));
}

/** 16 hex characters of the SHA-256 of the inputs, the libraries and the layout version. */
export function cardKey(inputs: CardInputs, versions: CardLibraries): string {
  const { title, siteName, locale, color, width, height } = inputs;
  const text = JSON.stringify({ layout: CARD_LAYOUT_VERSION, title, siteName, locale: locale ?? null, color, width, height, ...versions });
  return hash('sha256', text, 'hex').slice(0, 16);
}

/** `<slug>-<key>.png`: one name per article and inputs, so a changed title is a new URL that social sites fetch again. */
export function cardFileName(slug: string, key: string): string {
  return `${slug}-${key}.png`;
}

/** Whether `name` is a card of `slug` (any key): the earlier cards of an article, removed when a new one is drawn. */
export function isCardOf(name: string, slug: string): boolean {
  return name.startsWith(`${slug}-`) && /^[0-9a-f]{16}\.png$/.test(name.slice(slug.length + 1));
}
