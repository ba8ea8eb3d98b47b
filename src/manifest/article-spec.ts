// What the manifest hands to the rest of the loader: one validated, defaults-applied request per article, with its slug and where it was written.
import type { ArticleRequest } from '../contract/request-schema.js';
import type { ManifestProblem } from './manifest-error.js';
import type { SiteFields } from './site-fields.js';

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
}
