// The generated cover card's settings: the loader option `coverCard` (on unless `false`), its colours and the site name it shows.
import { hash } from 'node:crypto';
import { z } from 'zod';

/** The card's size in pixels: the 1.91:1 image that Open Graph and X's large card show uncropped. */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/** Dark enough for white text at 4.5:1 or more; each article takes one by its slug, so a listing is not one colour. */
export const DEFAULT_CARD_COLORS = ['#1e3a8a', '#065f46', '#7c2d12', '#4c1d95', '#134e4a'] as const;

const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const COLOR_RULE = 'must be a hex colour such as "#1e3a8a"';
const color = z.string({ error: COLOR_RULE }).regex(HEX_COLOR, { error: COLOR_RULE });

/** The option's rule: `true`/`false`, or `{ colors?, siteName? }` (which turns it on). */
export const coverCardOptionSchema = z.union(
  [
    z.boolean(),
    z.strictObject({
      colors: z.union([color, z.array(color).min(1, { error: 'must list at least one colour' })], { error: `${COLOR_RULE}, or a list of them` }).optional(),
      siteName: z.string({ error: 'must be the name the card shows, e.g. "Brew Notes"' }).min(1, { error: 'must not be empty; leave it out for the host of `site`' }).optional(),
    }),
  ],
  { error: 'must be true, false or { colors?, siteName? } (e.g. { colors: ["#1e3a8a", "#065f46"], siteName: "Brew Notes" })' },
);
export type CoverCardOption = z.input<typeof coverCardOptionSchema>;

/** What every card of a collection shares. */
export interface CardSettings {
  colors: readonly string[];
  /** Shown under the title; empty: no line. */
  siteName: string;
}

/**
 * The settings of a collection's cards, or undefined when the option turns them off. The site name:
 * the option's, else the host of Astro's `site` (without `www.`), else the project's package.json `name`.
 */
export function cardSettings(option: CoverCardOption | undefined, site: string | URL | undefined, packageName: string | undefined): CardSettings | undefined {
  if (option === false) return undefined;
  const given = option === true || option === undefined ? {} : option;
  const colors = given.colors === undefined ? [...DEFAULT_CARD_COLORS] : typeof given.colors === 'string' ? [given.colors] : [...given.colors];
  return { colors: colors.map((value) => value.toLowerCase()), siteName: given.siteName ?? hostOf(site) ?? packageName ?? '' };
}

function hostOf(site: string | URL | undefined): string | undefined {
  if (site === undefined) return undefined;
  try {
    return new URL(String(site)).hostname.replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}

/** The article's colour: one of the list, chosen by its slug, so it stays when other articles come and go. */
export function cardColor(settings: CardSettings, slug: string): string {
  // The digest's first four bytes as a big-endian number, read from its hex (a Buffer a card cost more than the hash).
  const index = Number.parseInt(hash('sha256', slug, 'hex').slice(0, 8), 16) % settings.colors.length;
  return settings.colors[index]!;
}
