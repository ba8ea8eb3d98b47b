// A generated card's cache key: everything its pixels come from (text, colour, size, font, layout, library versions), so equal keys mean equal files.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/** Bumped whenever the card's layout (card-drawing.ts) changes what it draws. */
export const CARD_LAYOUT_VERSION = 1;

/** What one card shows. */
export interface CardInputs {
  title: string;
  siteName: string;
  /** `#rrggbb` or `#rgb`, lower case. */
  color: string;
  width: number;
  height: number;
}

/** The versions of what draws the card: satori (layout), resvg (pixels) and the font package. */
export interface CardLibraries {
  satori: string;
  resvg: string;
  font: string;
}

let libraries: CardLibraries | undefined;

/** Read from the packages' package.json files (not by importing them: a warm build never loads them). */
export function cardLibraries(): CardLibraries {
  if (libraries !== undefined) return libraries;
  const require = createRequire(import.meta.url);
  const version = (name: string): string => {
    try {
      return String((require(`${name}/package.json`) as { version?: unknown }).version ?? '?');
    } catch {
      return 'missing';
    }
  };
  libraries = { satori: version('satori'), resvg: version('@resvg/resvg-js'), font: `@fontsource/inter@${version('@fontsource/inter')}` };
  return libraries;
}

/** 16 hex characters of the SHA-256 of the inputs, the libraries and the layout version. */
export function cardKey(inputs: CardInputs, versions: CardLibraries = cardLibraries()): string {
  const { title, siteName, color, width, height } = inputs;
  const text = JSON.stringify({ layout: CARD_LAYOUT_VERSION, title, siteName, color, width, height, ...versions });
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** `<slug>-<key>.png`: one name per article and inputs, so a changed title is a new URL that social sites fetch again. */
export function cardFileName(slug: string, key: string): string {
  return `${slug}-${key}.png`;
}

/** Whether `name` is a card of `slug` (any key): the earlier cards of an article, removed when a new one is drawn. */
export function isCardOf(name: string, slug: string): boolean {
  return name.startsWith(`${slug}-`) && /^[0-9a-f]{16}\.png$/.test(name.slice(slug.length + 1));
}
