// What the manifest hands to the rest of the loader: one validated, defaults-applied request per article, with its slug and where it was written.
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ManifestProblem } from './manifest-error.js';
import type { SiteFields } from './site-fields.js';
import type { ManifestBudget } from './budget-setting.js';
import type { Duration } from '../lang/duration.js';

export interface ArticleSpec extends SiteFields {
  /** Unique (ignoring case) and safe as a URL segment and file name; see `validateSlug`. */
  slug: string;
  /** The target keyword, trimmed; `=== request.targetKeyword`. */
  keyword: string;
  /** Parsed by `articleRequestSchema`: spec defaults, then manifest `defaults`, then the entry's own parameters. */
  request: ArticleRequest;
  /** 0-based position in `articles` (for CSV: the data row, header excluded). */
  index: number;
  /** Where the entry was written: the manifest file (or inline origin label) and, when the format has lines, its line. */
  source: { file: string; line?: number };
  /** One language of an entry with `languages` (docs/languages.md); absent otherwise, so a one-language site is unchanged. */
  translation?: ArticleTranslation;
  /**
   * The slug (the id, for a translation) earlier versions derived from the same keyword, when it differs from `slug`:
   * a lock file that records it, and not `slug`, keeps it (`withRecordedSlugs`, `former-slugs.ts`).
   */
  formerSlug?: string;
}

/** A translation: its group, language, locale and direction; `slug` is its id by the manifest's id pattern. */
export interface ArticleTranslation {
  /** The group's key, shared by every language of the entry: the first language's slug, before the id pattern. */
  key: string;
  /** As written in `languages`, and sent as `request.language`. */
  language: string;
  /** BCP 47, from the locale table or the manifest's `locale:`. */
  locale: string;
  dir: 'ltr' | 'rtl';
  /** The entry gives no keyword for this language (and it is not the first): the entry's keyword is sent as written. */
  keywordFallback: boolean;
  /** Locale → id of each language of the entry, this one included. */
  translations: Readonly<Record<string, string>>;
  /** The group's key earlier versions derived, when it differs from `key` (see `ArticleSpec.formerSlug`). */
  formerKey?: string;
}

export interface Manifest {
  /** The manifest file (absolute when read by `loadManifest`), or the inline origin label. */
  file: string;
  /** In manifest order. */
  specs: ArticleSpec[];
  /** What is allowed but probably not meant (a default some entries take without effect); printed, never fatal. */
  warnings: ManifestProblem[];
  /** The top-level `review:` (the review gate), when the manifest sets it. */
  review?: boolean;
  /** The top-level `budget:` (the caps per run and per calendar month), when the manifest sets it. */
  budget?: ManifestBudget;
  /** The top-level `lookahead:` (how far ahead `autopilot` creates scheduled articles), when set; default `DEFAULT_LOOKAHEAD`. */
  lookahead?: Duration;
  /**
   * Top-level settings as written (`quality:`), with their line: the manifest reads them, the room that
   * uses them checks them (`quality/manifest-quality.ts`), so this room needs none of their rules.
   */
  settings?: { quality?: { value: unknown; line?: number } };
}
