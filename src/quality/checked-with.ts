// What an article's own findings are decided from besides its HTML, title and slug, as one value its processed record
// keeps: this package's checks (its version), their settings, the collection's paths and origins, and the article's
// request. `check` takes a record's findings as they stand while its value is the one the checks would have now.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../contract/canonical-json.js';
import type { ArticleRequest } from '../contract/request-schema.js';
import { PACKAGE_VERSION } from '../lang/package-version.js';
import type { CollectionPaths } from './check-context.js';
import type { QualityOptions } from './quality-options.js';

/**
 * The value a record keeps: a digest of all of the above, and the origins in the clear. `check` cannot read the
 * site's `site` (it is in the Astro config), so it takes the origins the build judged links with from the record.
 */
export const checkedWithSchema = z.object({ digest: z.string(), origins: z.array(z.string()) });
export type CheckedWith = z.infer<typeof checkedWithSchema>;

/** The part a pass shares, by its collection and settings: a pass hashes its (thousands of) paths once, not once an article. */
const shared = new WeakMap<CollectionPaths, WeakMap<QualityOptions, string>>();

function passFingerprint(options: QualityOptions, collection: CollectionPaths | undefined): string {
  const known = collection === undefined ? undefined : shared.get(collection)?.get(options);
  if (known !== undefined) return known;
  const judged = collection === undefined ? null : { paths: collection.paths, prefix: collection.prefix ?? null, origins: collection.origins ?? [] };
  const made = createHash('sha256').update(canonicalJson([PACKAGE_VERSION, options, judged])).digest('hex');
  if (collection !== undefined) shared.set(collection, (shared.get(collection) ?? new WeakMap()).set(options, made));
  return made;
}

/** The value for one article checked with `options` in `collection`. */
export function checkedWith(article: { request: ArticleRequest; collection?: CollectionPaths | undefined }, options: QualityOptions): CheckedWith {
  const digest = createHash('sha256').update(passFingerprint(options, article.collection)).update(canonicalJson(article.request)).digest('hex').slice(0, 32);
  return { digest, origins: [...(article.collection?.origins ?? [])] };
}
