// Draws one cover card: the title and the site name on a colour, laid out by satori and rasterized to PNG by resvg, with Inter from @fontsource.
//
// Loaded only when a card must be drawn (card-files.ts imports it on a cache miss): satori, its layout
// engine and resvg's native module cost about a third of a second to load, which a warm build never pays.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { CardInputs } from './card-key.js';

/** The subsets of Inter read for the title (700) and the site name (500): satori takes each glyph from the first font that has it. */
const FONT_SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'greek', 'vietnamese'] as const;
const FONT_WEIGHTS = [700, 500] as const;
/** Past this many characters the title is cut at a word and ends in "…", so it fits the card in at most four lines. */
const MAX_TITLE_CHARS = 110;
const PADDING = 72;

interface CardFont {
  name: string;
  data: Buffer;
  weight: 500 | 700;
  style: 'normal';
}

let fonts: Promise<CardFont[]> | undefined;

/** WOFF files (satori reads TTF, OTF and WOFF, not WOFF2), read once per process: satori caches its parse of the same array. */
function cardFonts(): Promise<CardFont[]> {
  fonts ??= (async () => {
    const fontDir = join(dirname(createRequire(import.meta.url).resolve('@fontsource/inter/package.json')), 'files');
    const files = FONT_WEIGHTS.flatMap((weight) => FONT_SUBSETS.map((subset) => ({ weight, file: join(fontDir, `inter-${subset}-${weight}-normal.woff`) })));
    return Promise.all(files.map(async ({ weight, file }) => ({ name: 'Inter', data: await readFile(file), weight, style: 'normal' as const })));
  })();
  return fonts;
}

/** White text on a dark colour, near-black on a light one (WCAG relative luminance). */
export function textColorOn(background: string): string {
  const hex = background.length === 4 ? background.slice(1).split('').map((digit) => digit + digit).join('') : background.slice(1);
  const channel = (offset: number): number => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  return luminance > 0.18 ? '#111827' : '#ffffff';
}

/** The title as the card shows it: whitespace collapsed, cut at a word past MAX_TITLE_CHARS. */
export function cardTitle(title: string): string {
  const text = title.replace(/\s+/g, ' ').trim();
  if (text.length <= MAX_TITLE_CHARS) return text;
  const cut = text.slice(0, MAX_TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

/** The card's element tree, in satori's React-like shape (no JSX: the package compiles with tsc alone). */
function cardTree(inputs: CardInputs): Record<string, unknown> {
  const title = cardTitle(inputs.title);
  const fontSize = title.length <= 50 ? 72 : title.length <= 80 ? 60 : 52;
  const color = textColorOn(inputs.color);
  const line = (text: string, style: Record<string, unknown>) => ({ type: 'div', props: { style: { display: 'flex', width: inputs.width - 2 * PADDING, ...style }, children: text } });
  return {
    type: 'div',
    props: {
      style: { width: inputs.width, height: inputs.height, padding: PADDING, boxSizing: 'border-box', display: 'flex', flexDirection: 'column', justifyContent: 'space-between', backgroundColor: inputs.color, color, fontFamily: 'Inter' },
      children: [
        line(title, { fontSize, fontWeight: 700, lineHeight: 1.15 }),
        line(inputs.siteName, { fontSize: 32, fontWeight: 500, opacity: 0.85 }),
      ],
    },
  };
}

/** The card as PNG bytes, exactly `width`×`height` pixels. */
export async function drawCard(inputs: CardInputs): Promise<Uint8Array> {
  const [{ default: satori }, { Resvg }, cardFontList] = await Promise.all([import('satori'), import('@resvg/resvg-js'), cardFonts()]);
  const svg = await satori(cardTree(inputs) as Parameters<typeof satori>[0], { width: inputs.width, height: inputs.height, fonts: cardFontList });
  return new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render().asPng();
}
