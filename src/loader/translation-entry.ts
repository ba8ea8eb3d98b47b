// What a translation adds to its entry: the locale, the group's key, its siblings' ids and the direction, and its HTML marked with its language.
import type { ArticleSpec } from '../manifest/index.js';
import { escapeHtml } from '../lang/escape.js';
import type { ArticleEntryData } from './entry-schema.js';

type TranslationFields = Pick<ArticleEntryData, 'locale' | 'translationKey' | 'translations' | 'dir'>;

/** `entry.data.locale`, `translationKey`, `translations` (locale → id, itself included) and `dir`: null and {} without `languages`. */
export function translationFields(translation: ArticleSpec['translation']): TranslationFields {
  if (translation === undefined) return { locale: null, translationKey: null, translations: {}, dir: null };
  return { locale: translation.locale, translationKey: translation.key, translations: { ...translation.translations }, dir: translation.dir };
}

/**
 * A translation's rendered HTML inside `<div lang dir>`: the page's `<html lang>` may be another language's (a
 * site with one layout), and right-to-left text needs `dir="rtl"` around it. Without `languages`, the HTML as it was.
 */
export function inItsLanguage(html: string, translation: ArticleSpec['translation']): string {
  if (translation === undefined) return html;
  return `<div lang="${escapeHtml(translation.locale)}" dir="${translation.dir}">${html}</div>`;
}
