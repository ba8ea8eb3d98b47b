// A site's recorded slugs win over a changed default: the slug earlier versions derived from a keyword, and a manifest whose specs take it back where the lock file records it.
import slugify from '@sindresorhus/slugify';
import type { ArticleSpec, ArticleTranslation, Manifest } from './article-spec.js';
import { hasNoLatinSpelling, slugAsWritten, slugIdentity } from './slug.js';

/**
 * The slug earlier versions derived (before the rule per script of `slug.ts`): transliterated unless some letter had no Latin spelling at
 * all, so Arabic, Persian and Urdu lost their vowels (`qhwt-baltqtyr`) and a Russian word with a
 * soft sign kept its Cyrillic (`учитель`) while others did not; kept as written with `unicode`.
 */
export function formerSlug(keyword: string, unicode: boolean): string {
  const normalized = keyword.normalize('NFKC');
  const letters = normalized.match(/\p{L}/gu) ?? [];
  if (!unicode && !letters.some(hasNoLatinSpelling)) return slugify(normalized, { decamelize: false });
  return slugAsWritten(normalized);
}

/**
 * Whether the slug earlier versions derived from `keyword` can differ from today's: only with a letter outside the Latin
 * script, since both rules transliterate Latin alike and keep every script as written with `unicode`.
 */
export function mayHaveFormerSlug(keyword: string, unicode: boolean): boolean {
  return !unicode && /[^\P{L}\p{Script=Latin}]/u.test(keyword);
}

/**
 * The manifest with each spec's `formerSlug` taken back where the lock file records it and not the
 * new one, and no other spec claims it: the default that derived the slug changed, the owner
 * changed nothing, so the article keeps its id and its URL (an owner's own change of `slug:` or of
 * `translations.slugs` gives no former slug, and moves the entry as before: `sync/plan.ts`).
 * A translation group whose member keeps its former id keeps its former key too, and every member
 * lists the ids kept. `recorded` (the lock file's slugs) is asked for only when some spec has a
 * former slug, so a site whose slugs did not change reads nothing more.
 */
export async function withRecordedSlugs(manifest: Manifest, recorded: () => Promise<ReadonlySet<string>>): Promise<Manifest> {
  if (!manifest.specs.some((spec) => spec.formerSlug !== undefined)) return manifest;
  const locked = await recorded();
  const claimed = new Set(manifest.specs.map((spec) => slugIdentity(spec.slug)));
  const kept = new Map<string, string>();
  for (const { slug, formerSlug: former } of manifest.specs) {
    if (former === undefined || !locked.has(former) || locked.has(slug) || claimed.has(slugIdentity(former))) continue;
    kept.set(slug, former);
    claimed.add(slugIdentity(former));
  }
  if (kept.size === 0) return manifest;
  const groupsKeptFormer = new Set(manifest.specs.filter((spec) => spec.translation !== undefined && kept.has(spec.slug)).map((spec) => spec.index));
  const specs = manifest.specs.map((spec): ArticleSpec => {
    const { formerSlug: former, ...rest } = spec;
    const slug = kept.get(spec.slug) ?? spec.slug;
    const translation = spec.translation === undefined ? undefined : keptTranslation(spec.translation, kept, groupsKeptFormer.has(spec.index));
    return { ...rest, slug, ...(former === undefined || slug === former ? {} : { formerSlug: former }), ...(translation === undefined ? {} : { translation }) };
  });
  return { ...manifest, specs };
}

/** A translation whose group's ids are those kept, and whose key is the former one when a member of its group kept its former id. */
function keptTranslation(translation: ArticleTranslation, kept: ReadonlyMap<string, string>, keepsFormerKey: boolean): ArticleTranslation {
  const { formerKey, ...rest } = translation;
  const translations = Object.fromEntries(Object.entries(translation.translations).map(([locale, id]) => [locale, kept.get(id) ?? id]));
  return Object.freeze({ ...rest, key: keepsFormerKey && formerKey !== undefined ? formerKey : translation.key, translations: Object.freeze(translations) });
}
