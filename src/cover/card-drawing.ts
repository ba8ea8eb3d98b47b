// Draws one cover card: the title and the site name on a colour, set by @napi-rs/canvas (Skia: HarfBuzz shaping, bidi, per-letter font fallback) in the fonts card-fonts.ts chose, as PNG.
//
// Loaded only when a card must be drawn (card-files.ts imports it on a cache miss): the canvas's native
// module costs about a tenth of a second to load, which a warm build never pays.
//
// A card is one colour and its text, so its pixels are a few hundred shades at most: it is written as an
// indexed PNG of exactly those colours (fast-png), about 19 KB on the bench site's cards against Skia's 46 KB
// RGBA file of the same pixels. Every build copies the public folder into its output, and the site deploys it.
import type { CardText, FontFace } from './card-fonts.js';

type Canvas = typeof import('@napi-rs/canvas');
type Context = ReturnType<ReturnType<Canvas['createCanvas']>['getContext']>;

/** Past this many graphemes the title is cut at a word and ends in "…"; the layout then fits it in at most four lines. */
const MAX_TITLE_GRAPHEMES = 110;
const PADDING = 72;
const MAX_TITLE_LINES = 4;
const TITLE_SIZES = [72, 60, 52] as const;
const LINE_HEIGHT = 1.3;
const SITE_NAME_SIZE = 32;

/** What one card draws. `fallback` goes in the title's place when none of the title can be set (only emoji, no font for its script). */
export interface CardDrawing {
  title: CardText;
  siteName: CardText;
  fallback: CardText;
  /** The article's locale: how its text breaks into lines (Thai has no spaces). */
  locale: string | undefined;
  color: string;
  width: number;
  height: number;
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

/** The title as the card shows it: whitespace collapsed, cut at a word (or, in a script without spaces, at a grapheme) past MAX_TITLE_GRAPHEMES. */
export function cardTitle(title: string): string {
  const text = title.replace(/\s+/g, ' ').trim();
  const parts = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map(({ segment }) => segment);
  if (parts.length <= MAX_TITLE_GRAPHEMES) return text;
  const cut = parts.slice(0, MAX_TITLE_GRAPHEMES).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > cut.length / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

/** `rtl` when the first letter is of a right-to-left script: the line then starts at the right margin. */
export function directionOf(text: string): 'ltr' | 'rtl' {
  const first = /\p{L}/u.exec(text)?.[0];
  return first !== undefined && /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u.test(first) ? 'rtl' : 'ltr';
}

const registered = new Set<string>();

/** Each subset file under its own family name, once per process: Skia then takes each letter from the first listed family that has it. */
function fontList(canvas: Canvas, faces: readonly FontFace[], weight: number, size: number): string {
  for (const face of faces) {
    if (registered.has(face.family)) continue;
    canvas.GlobalFonts.registerFromPath(face.file, face.family);
    registered.add(face.family);
  }
  return `${weight} ${size}px ${faces.map((face) => `"${face.family}"`).join(', ')}`;
}

/** `segments` cut into graphemes, for a word wider than a line (a long URL, a title without breaks). */
function graphemesOf(segments: readonly string[]): string[] {
  const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segments.flatMap((segment) => [...graphemes.segment(segment)].map((part) => part.segment));
}

/** The locale's word breaks; a tag Intl does not take (a manifest's own `locale:`) breaks as the default does. */
function wordSegmenter(locale: string | undefined): Intl.Segmenter {
  try {
    return new Intl.Segmenter(locale, { granularity: 'word' });
  } catch {
    return new Intl.Segmenter(undefined, { granularity: 'word' });
  }
}

/** The text in lines no wider than `width`, broken between words (Intl.Segmenter: spaces, or a dictionary for Thai and CJK); punctuation never starts a line. */
function wrapLines(ctx: Context, text: string, width: number, locale: string | undefined): string[] {
  const words = [...wordSegmenter(locale).segment(text)].map(({ segment }) => segment);
  const lines: string[] = [];
  let line = '';
  for (const word of words.flatMap((word) => (ctx.measureText(word).width > width ? graphemesOf([word]) : [word]))) {
    const next = line + word;
    if (line.trim() === '' || ctx.measureText(next.trim()).width <= width) {
      line = next;
      continue;
    }
    // Punctuation never starts a line: it takes the last word of the line down with it.
    const space = /[\p{L}\p{N}\s]/u.test(word) ? -1 : line.trimEnd().lastIndexOf(' ');
    lines.push((space > 0 ? line.slice(0, space) : line).trim());
    line = `${space > 0 ? line.slice(space) : ''}${word}`.trimStart();
  }
  if (line.trim() !== '') lines.push(line.trim());
  return lines;
}

/** The last line shortened until it fits with "…" after it. */
function ellipsized(ctx: Context, line: string, width: number): string {
  let parts = graphemesOf([line]);
  while (parts.length > 0 && ctx.measureText(`${parts.join('').trimEnd()}…`).width > width) parts = parts.slice(0, -1);
  return `${parts.join('').trimEnd().replace(/[\s,;:.–-]+$/, '')}…`;
}

/** The largest size at which the title fits in four lines; at the smallest, the fourth line ends in "…". */
function fitTitle(canvas: Canvas, ctx: Context, text: CardText, width: number, locale: string | undefined): { font: string; size: number; lines: string[] } {
  for (const size of TITLE_SIZES) {
    ctx.font = fontList(canvas, text.faces, 700, size);
    const lines = wrapLines(ctx, text.shown, width, locale);
    if (lines.length <= MAX_TITLE_LINES) return { font: ctx.font, size, lines };
    if (size === TITLE_SIZES.at(-1)) {
      const kept = lines.slice(0, MAX_TITLE_LINES);
      kept[MAX_TITLE_LINES - 1] = ellipsized(ctx, kept[MAX_TITLE_LINES - 1]!, width);
      return { font: ctx.font, size, lines: kept };
    }
  }
  throw new Error('unreachable: the smallest size always returns');
}

/** Lines from `top` (the first line's baseline a size below it), each starting at its direction's margin. */
function drawLines(ctx: Context, lines: readonly string[], size: number, top: number, card: CardDrawing): void {
  const direction = directionOf(lines.join(' '));
  ctx.direction = direction;
  ctx.textAlign = direction === 'rtl' ? 'right' : 'left';
  const x = direction === 'rtl' ? card.width - PADDING : PADDING;
  lines.forEach((line, index) => ctx.fillText(line, x, top + size + index * size * LINE_HEIGHT - size * 0.2));
}

/** Whether the text has a letter or a digit: punctuation alone would leave the title area as good as blank. */
const hasInk = (text: CardText): boolean => /[\p{L}\p{N}\p{Extended_Pictographic}]/u.test(text.shown);

/** The card as PNG bytes, exactly `width`×`height` pixels. */
export async function drawCard(card: CardDrawing): Promise<Uint8Array> {
  const canvas = await import('@napi-rs/canvas');
  const surface = canvas.createCanvas(card.width, card.height);
  const ctx = surface.getContext('2d');
  ctx.fillStyle = card.color;
  ctx.fillRect(0, 0, card.width, card.height);
  ctx.fillStyle = textColorOn(card.color);
  // Never a blank title area: the site name takes the title's place, else the article's slug.
  const headline = hasInk(card.title) ? card.title : hasInk(card.siteName) ? card.siteName : card.fallback;
  const footer = headline === card.title && hasInk(card.siteName) ? card.siteName : undefined;
  const title = fitTitle(canvas, ctx, { ...headline, shown: cardTitle(headline.shown) }, card.width - 2 * PADDING, card.locale);
  ctx.font = title.font;
  drawLines(ctx, title.lines, title.size, PADDING, card);
  if (footer !== undefined) {
    ctx.font = fontList(canvas, footer.faces, 500, SITE_NAME_SIZE);
    ctx.globalAlpha = 0.85;
    const line = wrapLines(ctx, footer.shown, card.width - 2 * PADDING, undefined);
    drawLines(ctx, [line.length > 1 ? ellipsized(ctx, line[0]!, card.width - 2 * PADDING) : (line[0] ?? '')], SITE_NAME_SIZE, card.height - PADDING - SITE_NAME_SIZE * 1.2, card);
    ctx.globalAlpha = 1;
  }
  return encodePng(ctx.getImageData(0, 0, card.width, card.height).data, card.width, card.height, () => surface.encode('png'));
}

/** The colours of `rgba` (each opaque, as RGB) and each pixel's index among them; undefined past 256 colours, or for a translucent pixel. */
function paletteOf(rgba: Uint8ClampedArray | Uint8Array): { colors: number[][]; indices: Uint8Array } | undefined {
  // A pixel read as one 32-bit number, which needs a 4-byte aligned view: a view elsewhere is copied first.
  const aligned = rgba.byteOffset % 4 === 0 ? rgba : rgba.slice();
  const pixels = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
  const indexOf = new Map<number, number>();
  const colors: number[][] = [];
  const indices = new Uint8Array(pixels.length);
  let last = -1;
  let lastIndex = 0;
  for (let i = 0; i < pixels.length; i++) {
    const pixel = pixels[i]!;
    if (pixel !== last) {
      let index = indexOf.get(pixel);
      if (index === undefined) {
        const offset = i * 4;
        // fast-png 8.0's transparency chunk lists only the translucent colours' alphas, not one per palette entry in
        // order, so a palette that mixes opaque and translucent colours decodes with the wrong alphas: RGBA instead.
        if (colors.length === 256 || rgba[offset + 3] !== 255) return undefined;
        index = colors.length;
        indexOf.set(pixel, index);
        colors.push([rgba[offset]!, rgba[offset + 1]!, rgba[offset + 2]!]);
      }
      last = pixel;
      lastIndex = index;
    }
    indices[i] = lastIndex;
  }
  return { colors, indices };
}

/**
 * `rgba` (width×height, not premultiplied) as an indexed PNG of its exact colours, or `rgbaPng()` when it has more than 256
 * or a translucent pixel (a card has neither: its background is one opaque colour).
 */
export async function encodePng(rgba: Uint8ClampedArray | Uint8Array, width: number, height: number, rgbaPng: () => Promise<Uint8Array>): Promise<Uint8Array> {
  const palette = paletteOf(rgba);
  if (palette === undefined) return rgbaPng();
  const { encode } = await import('fast-png');
  return encode({ width, height, data: palette.indices, depth: 8, channels: 1, palette: palette.colors }, { zlib: { level: 6 } });
}
