// The ids of translations: the manifest's `translations:` setting (the id pattern, Unicode or transliterated slugs), each translation's id from it, and the id checked segment by segment.
import { isPlainObject } from '../lang/plain-object.js';
import type { ArticleTranslation } from './article-spec.js';
import { validateSlug } from './slug.js';

/** `{locale}/{slug}`: `de/pour-over-kaffee`. The CLI and the loader read it from the manifest, so both name an article alike. */
export const DEFAULT_ID_PATTERN = '{locale}/{slug}';
const PLACEHOLDERS = ['{locale}', '{slug}', '{key}'];

/** The manifest's top-level `translations:`. */
export interface TranslationIdSettings {
  /** With `{locale}`, `{slug}` (this language's slug) and `{key}` (the group's, the first language's slug); `/` makes folders. */
  pattern: string;
  /**
   * `slugs:` as written, for a translation's derived slug: `unicode` keeps every script as written (`ru/москва-отели`),
   * `transliterate` spells every script the library can (`ar/qhwt-baltqtyr`); unset, the rule per script of `slug.ts`.
   */
  slugs?: 'transliterate' | 'unicode';
}

/** `translations:` checked; problems reported with their field. */
export function translationSettings(value: unknown, report: (field: string, message: string) => void): TranslationIdSettings {
  const settings: TranslationIdSettings = { pattern: DEFAULT_ID_PATTERN };
  if (value === undefined || value === null) return settings;
  if (!isPlainObject(value)) {
    report('translations', 'must be a mapping, such as { id: "{locale}/{slug}", slugs: unicode }');
    return settings;
  }
  for (const [key, each] of Object.entries(value)) {
    if (key === 'id') {
      const problem = typeof each === 'string' ? patternProblem(each) : 'must be text, such as "{locale}/{slug}"';
      if (problem === undefined) settings.pattern = (each as string).trim();
      else report('translations.id', problem);
    } else if (key === 'slugs') {
      if (each === 'unicode' || each === 'transliterate') settings.slugs = each;
      else report('translations.slugs', 'must be "transliterate" (every script the library spells: قهوة → qhwt) or "unicode" (every script as written: москва → москва); leave it out for the rule per script (москва → moskva, قهوة → قهوة)');
    } else report(`translations.${key}`, 'is not a setting of `translations`, which has `id` and `slugs`; remove it');
  }
  return settings;
}

function patternProblem(pattern: string): string | undefined {
  const unknown = pattern.match(/\{[^}]*\}/gu)?.find((placeholder) => !PLACEHOLDERS.includes(placeholder));
  if (unknown !== undefined) return `has ${unknown}, which is not a placeholder; use {locale}, {slug} and {key}`;
  if (!pattern.includes('{slug}') && !pattern.includes('{key}')) return 'must contain {slug} or {key}, or every article of a language would have the same id';
  if (pattern.split('/').some((segment) => segment.trim() === '')) return 'has an empty segment (a leading, trailing or doubled "/"); remove it';
  return undefined;
}

/** The id of one translation. */
export function translationId(pattern: string, parts: { locale: string; slug: string; key: string }): string {
  return pattern.replaceAll('{locale}', parts.locale).replaceAll('{slug}', parts.slug).replaceAll('{key}', parts.key);
}

/** Why an id made from the pattern is not safe as URL path segments and file names (each segment as a slug), or undefined. */
export function idProblem(id: string): string | undefined {
  for (const segment of id.split('/')) {
    const reason = validateSlug(segment);
    if (reason !== undefined) return `has the segment "${segment}", which ${reason.split(';')[0]}`;
  }
  return undefined;
}

/** A translation while the manifest is read. */
export interface TranslationDraft {
  language: string;
  locale: string;
  dir: 'ltr' | 'rtl';
  keywordFallback: boolean;
  key?: string;
  /** The key earlier versions derived, when it differs (see `former-slugs.ts`). */
  formerKey?: string;
}

/**
 * Gives each translation its id from the pattern: the entry's drafts (one per language, in `languages` order) share
 * the first one's slug as their key. Ids that are not safe are reported on the entry. A draft with a `formerSlug`
 * (see `former-slugs.ts`) gets its former id, made the same way from the former slugs, when that differs and is safe.
 */
export function assignTranslationIds<D extends { index: number; slug?: string; formerSlug?: string; translation?: TranslationDraft }>(
  drafts: D[],
  pattern: string,
  report: (draft: D, message: string) => void,
): void {
  const keys = new Map<number, { key: string; formerKey: string }>();
  for (const draft of drafts) {
    if (draft.translation === undefined || draft.slug === undefined) continue;
    const keyed = keys.get(draft.index) ?? { key: draft.slug, formerKey: draft.formerSlug ?? draft.slug };
    keys.set(draft.index, keyed);
    const { locale } = draft.translation;
    const id = translationId(pattern, { locale, slug: draft.slug, key: keyed.key });
    const formerId = translationId(pattern, { locale, slug: draft.formerSlug ?? draft.slug, key: keyed.formerKey });
    const problem = idProblem(id);
    draft.translation.key = keyed.key;
    if (keyed.formerKey !== keyed.key) draft.translation.formerKey = keyed.formerKey;
    if (formerId !== id && idProblem(formerId) === undefined) draft.formerSlug = formerId;
    else delete draft.formerSlug;
    if (problem === undefined) draft.slug = id;
    else {
      report(draft, `"${id}", the id from the pattern "${pattern}", ${problem}; change \`translations.id\` or give \`slug:\``);
      delete draft.slug;
    }
  }
}

/** Each entry's translations (by its index): locale → id, in `languages` order. */
export function translationGroups(drafts: readonly { index: number; slug?: string; translation?: TranslationDraft }[]): Map<number, Record<string, string>> {
  const groups = new Map<number, Record<string, string>>();
  for (const draft of drafts) {
    if (draft.translation === undefined || draft.slug === undefined) continue;
    const group = groups.get(draft.index) ?? {};
    group[draft.translation.locale] = draft.slug;
    groups.set(draft.index, group);
  }
  return groups;
}

/** The spec's `translation`, frozen: its group's ids are shared by every language of the entry. */
export function articleTranslation(draft: TranslationDraft, group: Record<string, string>): ArticleTranslation {
  return Object.freeze({
    key: draft.key!,
    language: draft.language,
    locale: draft.locale,
    dir: draft.dir,
    keywordFallback: draft.keywordFallback,
    translations: Object.freeze({ ...group }),
    ...(draft.formerKey === undefined ? {} : { formerKey: draft.formerKey }),
  });
}
