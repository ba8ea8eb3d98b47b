// Where generated cards live: drawn once into the cache (articles.cache/covers/), copied into the site's public folder, from which Astro copies them into the build.
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { COVERS_DIR_NAME } from '../sync/output-cache.js';
import { listDir, writeFileAtomic } from '../sync/atomic-file.js';
import { CARD_HEIGHT, CARD_WIDTH, cardColor, type CardSettings } from './card-options.js';
import { CardFonts, type CardText, type FontNeed } from './card-fonts.js';
import { cardFileName, cardKey, cardLibraries, isCardOf, textFonts, type CardInputs } from './card-key.js';

/** One article's card: its public URL, and whether this call drew it (else it came from the cache). */
export interface CardFile {
  src: string;
  width: number;
  height: number;
  drawn: boolean;
  /** What the card left out for want of a font (the title or site name without those letters): for the build's warning. */
  missing: FontNeed[];
}

export interface CardFilesOptions {
  settings: CardSettings;
  /** The collection's cache directory (articles.cache/). */
  cacheDir: string;
  /** The folder Astro copies into the build (absolute), and the URL path it is served at (ending in `/`). */
  publicDir: string;
  publicPath: string;
  /** The installed font packages; a test passes its own to leave one out. */
  fonts?: CardFonts;
}

/**
 * The cards of one collection. A card's file name holds the key of its inputs (card-key.ts): a cache
 * hit is a file that exists, and a changed title or colour is a new file (and URL). When an article's
 * card is drawn anew, its earlier cards are removed from both folders.
 */
export class CardFiles {
  readonly #options: CardFilesOptions;
  /**
   * The file names of each folder a card was looked for in, listed once (a stat per card cost more than the pass's own reads):
   * the listing under way, then the names, so a card looked for after the first in its folder is a lookup, not a wait.
   */
  readonly #listings = new Map<string, Promise<Set<string>> | Set<string>>();
  readonly #fonts: CardFonts;
  /** The cache's and the public folder's directories of cards, joined once. */
  readonly #cacheDir: string;
  readonly #publishedDir: string;
  #canvas: string | undefined;
  /** The site name as every card sets it: the same text on each. */
  #siteText: CardText | undefined;

  constructor(options: CardFilesOptions) {
    this.#options = options;
    this.#fonts = options.fonts ?? new CardFonts();
    this.#cacheDir = join(options.cacheDir, COVERS_DIR_NAME);
    this.#publishedDir = join(options.publicDir, COVERS_DIR_NAME);
  }

  /** The name every card shows under its title. */
  get siteName(): string {
    return this.#options.settings.siteName;
  }

  /** The directory of the cache's cards. */
  get cacheDir(): string {
    return this.#cacheDir;
  }

  /**
   * The card of `slug` with `title` (in `locale`): taken from the cache, else drawn and kept there; in
   * the public folder either way. Letters no installed font has are left out, never drawn as boxes, and
   * listed in `missing`; the key holds the fonts the card is set in and the ones it lacks, so installing
   * one of those draws the card again (and installing another leaves it be).
   */
  async card(slug: string, title: string, locale?: string): Promise<CardFile> {
    const { settings } = this.#options;
    const inputs: CardInputs = { title, siteName: settings.siteName, locale, color: cardColor(settings, slug), width: CARD_WIDTH, height: CARD_HEIGHT };
    const titleText = this.#fonts.text(title, locale);
    const siteText = (this.#siteText ??= this.#fonts.text(settings.siteName));
    const slugText = this.#fonts.text(slug.split('/').pop()!);
    // Never a blank title area: the site name takes the title's place when none of it can be set, else the slug, else dots.
    const fallback = /[\p{L}\p{N}]/u.test(slugText.shown) ? slugText : this.#fonts.text('• • •');
    this.#canvas ??= cardLibraries(this.#fonts).canvas;
    const name = cardFileName(slug, cardKey(inputs, { canvas: this.#canvas, fonts: textFonts(titleText, siteText, fallback) }));
    const drawn = !(await this.#has(this.#cacheDir, name));
    if (drawn) {
      const cached = join(this.#cacheDir, name);
      const { drawCard } = await import('./card-drawing.js');
      const png = await drawCard({ title: titleText, siteName: siteText, fallback, locale, color: inputs.color, width: CARD_WIDTH, height: CARD_HEIGHT });
      await mkdir(dirname(cached), { recursive: true });
      await writeFileAtomic(cached, png, { durable: false });
      await this.#keepOnly(cached, slug);
    }
    if (drawn || !(await this.#has(this.#publishedDir, name))) {
      const published = join(this.#publishedDir, name);
      await mkdir(dirname(published), { recursive: true });
      await copyFile(join(this.#cacheDir, name), published);
      await this.#keepOnly(published, slug);
    }
    const src = `${this.#options.publicPath}${COVERS_DIR_NAME}/${name}`;
    const missing = [...titleText.missing, ...siteText.missing.filter((need) => !titleText.missing.some((other) => other.script === need.script))];
    return { src, width: CARD_WIDTH, height: CARD_HEIGHT, drawn, missing };
  }

  #names(dir: string): Promise<Set<string>> | Set<string> {
    let names = this.#listings.get(dir);
    if (names === undefined) {
      const listing = listDir(dir).then((list) => {
        const listed = new Set(list);
        this.#listings.set(dir, listed);
        return listed;
      });
      this.#listings.set(dir, listing);
      names = listing;
    }
    return names;
  }

  /** Whether the card file `name` (`de/x-….png` for a nested slug) is in `root`: at once when its folder was listed. */
  #has(root: string, name: string): boolean | Promise<boolean> {
    const slash = name.lastIndexOf('/');
    const dir = slash < 0 ? root : join(root, name.slice(0, slash));
    const base = slash < 0 ? name : name.slice(slash + 1);
    const names = this.#names(dir);
    return names instanceof Set ? names.has(base) : names.then((listed) => listed.has(base));
  }

  /** `file` just written, and the other cards of `slug` beside it removed (a nested slug `de/x` has its cards in `de/`). */
  async #keepOnly(file: string, slug: string): Promise<void> {
    const dir = dirname(file);
    const names = await this.#names(dir);
    const own = basename(file);
    names.add(own);
    const base = slug.split('/').pop()!;
    for (const name of [...names]) {
      if (name === own || !isCardOf(name, base)) continue;
      await rm(join(dir, name), { force: true });
      names.delete(name);
    }
  }
}
