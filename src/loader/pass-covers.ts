// The cover cards of a pass: the `coverCard` option's settings with Astro's `site` and the project's name, where the files go, and their part of every entry's digest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CardFiles } from '../cover/card-files.js';
import { CardFonts } from '../cover/card-fonts.js';
import { cardLibraries } from '../cover/card-key.js';
import { cardSettings } from '../cover/card-options.js';
import type { CollectionScope } from './collection-scope.js';
import { DEFAULT_IMAGE_PUBLIC_PATH } from './option-declarations.js';

export interface PassCovers {
  /** Undefined when `coverCard: false`: an article without images then has no cover. */
  cards: CardFiles | undefined;
  /** What the cards of this pass are made from, for the entry digest: a change rewrites every entry. */
  coverFingerprint: string;
}

/**
 * The cards go where downloaded images go (`downloadImages.dir`, served at its `publicPath`), in
 * `covers/`; without downloads, into `_articles/covers/` of Astro's public folder, served at `/_articles/covers/`.
 */
export function passCovers(scope: CollectionScope, cacheDir: string, downloads: { dir: string; publicPath: string } | undefined): PassCovers {
  const { context, options, root } = scope;
  const settings = cardSettings(options.coverCard, context.config.site, packageName(root));
  if (settings === undefined) return { cards: undefined, coverFingerprint: 'off' };
  // Astro always sets publicDir; a content layer driven by hand (a test, a tool) may not: Astro's default then.
  const publicDir = downloads?.dir ?? join(context.config.publicDir === undefined ? join(root, 'public') : fileURLToPath(context.config.publicDir), '_articles');
  const publicPath = downloads?.publicPath ?? DEFAULT_IMAGE_PUBLIC_PATH;
  const prefix = publicPath.endsWith('/') ? publicPath : `${publicPath}/`;
  // The fonts' versions are in the fingerprint: installing one rewrites the entries, whose cards are then drawn with it.
  const fonts = new CardFonts();
  return {
    cards: new CardFiles({ settings, cacheDir, publicDir, publicPath: prefix, fonts }),
    coverFingerprint: JSON.stringify({ ...settings, publicPath: prefix, ...cardLibraries(fonts) }),
  };
}

/** The project's package.json `name`, the card's site name when Astro has no `site`. */
function packageName(root: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  } catch {
    return undefined;
  }
}
