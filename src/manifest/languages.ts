// `languages`: one manifest entry becomes one entry per language, with its own keyword and parameters where the owner gives them per language, and its locale.
import { ALL_PARAMETER_NAMES } from '../contract/request-schema.js';
import { isPlainObject } from '../lang/plain-object.js';
import type { DataPath } from './manifest-document.js';
import { checkedLocale, languageIdentity, tableLocale, textDirection } from './locales.js';

/** What one language of an entry is: its name as written, its locale, its direction, and whether it has a keyword of its own. */
export interface LanguageOfEntry {
  language: string;
  locale: string;
  dir: 'ltr' | 'rtl';
  /** True when the entry gives no keyword for this language and it is not the first of `languages`: the entry's keyword is sent as written. */
  keywordFallback: boolean;
}

/** One entry for one language: the entry as `resolveEntry` reads it, and its language (none for an entry without `languages`). */
export interface LanguageVariant {
  item: unknown;
  language?: LanguageOfEntry;
}

/** `languages` and `locale` of `defaults`, checked once. */
export interface LanguageDefaults {
  languages?: string[];
  /** Language identity → locale. */
  locales: Map<string, string>;
  /** Parameters of `defaults` given per language: parameter → language identity → value. */
  perLanguage: Map<string, Map<string, unknown>>;
}

/** Reports a problem of the entry (or of `defaults`): its field, what is wrong, and where. */
export type LanguageProblem = (field: string, message: string, path: DataPath) => void;

/** Fields that cannot differ per language: the language is `languages`' job, and polish settings are already a mapping. */
const NOT_PER_LANGUAGE = new Set(['language', 'languages', 'locale', 'polishSettings', 'data', 'draft', 'publishDate']);

/** What may be given per language: the keyword, the slug and the request parameters (an unknown name is left to the entry's checks). */
function perLanguageField(name: string): boolean {
  return !NOT_PER_LANGUAGE.has(name) && (name === 'keyword' || name === 'slug' || ALL_PARAMETER_NAMES.includes(name));
}

/** `languages` as written (a list, or one text with `;` or `,` between names) → the names, or a problem. */
function languageList(value: unknown): { names: string[] } | { problem: string } {
  const items = typeof value === 'string' ? value.split(/[;,]/u) : value;
  if (!Array.isArray(items)) return { problem: 'must be a list of language names, such as [English, German]' };
  const names: string[] = [];
  const seen = new Map<string, string>();
  for (const item of items) {
    if (typeof item !== 'string' || item.trim() === '') return { problem: 'must be a list of language names, such as [English, German]; one of them is not text' };
    const name = item.trim();
    const earlier = seen.get(languageIdentity(name));
    if (earlier !== undefined) return { problem: `lists "${name}" twice (as "${earlier}" before); give each language once` };
    seen.set(languageIdentity(name), name);
    names.push(name);
  }
  if (names.length === 0) return { problem: 'is empty; list at least one language, or remove it' };
  return { names };
}

/** `locale: { Language: code }` (or `locale.Language` keys) checked: language identity → canonical code. */
function localeMap(value: unknown, dotted: [string, unknown][], path: DataPath, report: LanguageProblem): Map<string, string> {
  const locales = new Map<string, string>();
  const pairs: [string, unknown, DataPath][] = dotted.map(([language, code]) => [language, code, [...path.slice(0, -1), `locale.${language}`]]);
  if (value !== undefined) {
    if (!isPlainObject(value)) report('locale', 'must be a mapping of language name to BCP 47 code, such as { Klingon: tlh }', path);
    else for (const [language, code] of Object.entries(value)) pairs.push([language, code, [...path, language]]);
  }
  for (const [language, code, at] of pairs) {
    const checked = typeof code === 'string' ? checkedLocale(code) : { problem: 'must be a BCP 47 code as text, such as "pt-BR"' };
    // '' marks a code reported here, so the language is not reported again as lacking one.
    if ('problem' in checked) report(`locale.${language}`, checked.problem, at);
    locales.set(languageIdentity(language), 'locale' in checked ? checked.locale : '');
  }
  return locales;
}

/** Splits the parameters of `defaults` into the plain ones and those given per language; checks `languages` and `locale` there. */
export function languageDefaults(params: Record<string, unknown>, report: LanguageProblem): { params: Record<string, unknown>; languages: LanguageDefaults } {
  const { languages: rawLanguages, locale, ...rest } = params;
  const result: LanguageDefaults = { locales: localeMap(locale, [], ['defaults', 'locale'], report), perLanguage: new Map() };
  if (rawLanguages !== undefined) {
    const list = languageList(rawLanguages);
    if ('problem' in list) report('languages', list.problem, ['defaults', 'languages']);
    else result.languages = list.names;
  }
  const plain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (perLanguageField(key) && isPlainObject(value)) {
      result.perLanguage.set(key, new Map(Object.entries(value).map(([language, each]) => [languageIdentity(language), each])));
    } else plain[key] = value;
  }
  for (const [key, byLanguage] of result.perLanguage) {
    for (const language of byLanguage.keys()) {
      if (result.languages !== undefined && !result.languages.some((name) => languageIdentity(name) === language)) {
        report(`${key}.${language}`, `gives a value for "${language}", which is not in \`languages\`; add it there, or remove this value`, ['defaults', key, language]);
      }
    }
  }
  return { params: plain, languages: result };
}

/** An entry's fields split: plain values, and per-language values (`keyword: { German: … }` or `keyword.German: …`) with where each was written. */
function splitEntry(entry: Record<string, unknown>, base: DataPath): { plain: Record<string, unknown>; perLanguage: Map<string, Map<string, { language: string; value: unknown; path: DataPath }>>; dottedLocales: [string, unknown][] } {
  const plain: Record<string, unknown> = {};
  const perLanguage = new Map<string, Map<string, { language: string; value: unknown; path: DataPath }>>();
  const dottedLocales: [string, unknown][] = [];
  const put = (field: string, language: string, value: unknown, path: DataPath) => {
    const byLanguage = perLanguage.get(field) ?? new Map<string, { language: string; value: unknown; path: DataPath }>();
    byLanguage.set(languageIdentity(language), { language, value, path });
    perLanguage.set(field, byLanguage);
  };
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'languages' || key === 'locale') continue; // read by `languageVariants`
    const dot = key.indexOf('.');
    const field = dot === -1 ? key : key.slice(0, dot);
    if (dot !== -1 && field === 'locale') dottedLocales.push([key.slice(dot + 1), value]);
    else if (dot !== -1 && perLanguageField(field)) put(field, key.slice(dot + 1), value, [...base, key]);
    else if (perLanguageField(key) && key !== 'targetKeyword' && isPlainObject(value)) {
      for (const [language, each] of Object.entries(value)) put(key, language, each, [...base, key, language]);
    } else plain[key] = value;
  }
  return { plain, perLanguage, dottedLocales };
}

/** Each language's locale: the entry's `locale`, else `defaults`' `locale`, else the table; a language with none is reported. */
function localesOf(names: string[], own: Map<string, string>, defaults: LanguageDefaults, at: DataPath, report: LanguageProblem): (string | undefined)[] {
  const locales = names.map((name) => {
    const locale = own.get(languageIdentity(name)) ?? defaults.locales.get(languageIdentity(name)) ?? tableLocale(name);
    if (locale === '') return undefined;
    if (locale === undefined) {
      report('languages', `has "${name}", which the locale table lacks; add \`locale: { ${name}: <BCP 47 code> }\` to the entry or to defaults (docs/languages.md lists the table)`, at);
    }
    return locale;
  });
  const byLocale = new Map<string, string>();
  names.forEach((name, index) => {
    const locale = locales[index];
    if (locale === undefined) return;
    const earlier = byLocale.get(locale.toLowerCase());
    if (earlier !== undefined) {
      report('languages', `has "${earlier}" and "${name}", which are both locale ${locale}; give each language once`, at);
      locales[index] = undefined;
    }
    byLocale.set(locale.toLowerCase(), name);
  });
  return locales;
}

/**
 * The entry, once per language of its `languages` (or of `defaults`' `languages`): its keyword and parameters for that
 * language, and `language` set. An entry without languages is returned as it is, so a one-language site is unchanged.
 * Problems are reported; an entry with one yields no variant.
 */
export function languageVariants(item: unknown, base: DataPath, defaults: LanguageDefaults, report: LanguageProblem): LanguageVariant[] {
  const entry = isPlainObject(item) ? item : typeof item === 'string' && defaults.languages !== undefined ? { keyword: item } : undefined;
  if (entry === undefined) return [{ item }];
  const { plain, perLanguage, dottedLocales } = splitEntry(entry, base);
  const own = localeMap(entry.locale, dottedLocales, [...base, 'locale'], report);
  let names = defaults.languages;
  if (entry.languages !== undefined) {
    const list = languageList(entry.languages);
    if ('problem' in list) return (report('languages', list.problem, [...base, 'languages']), []);
    names = list.names;
  }
  if (names === undefined) {
    // Without languages, only what is plainly meant per language is refused here; the rest is checked as it always was.
    const dotted = Object.keys(entry).some((key) => key.includes('.') && perLanguage.has(key.split('.')[0]!));
    if (!perLanguage.has('keyword') && !dotted && entry.locale === undefined && dottedLocales.length === 0) return [{ item }];
    const field = perLanguage.has('keyword') ? 'keyword' : (perLanguage.keys().next().value ?? 'locale');
    report(field, `is given per language, but the entry has no \`languages\`; add \`languages: [${[...(perLanguage.get(field)?.values() ?? [])].map((each) => each.language).join(', ') || 'English'}]\` to it or to defaults`, [...base, field]);
    return [];
  }
  if (entry.language !== undefined) {
    const fix = entry.languages === undefined ? `write \`languages: [${String(entry.language)}]\` instead` : 'remove `language`';
    report('language', `is given with \`languages\`${entry.languages === undefined ? ' (from defaults)' : ''}, which sets the language of each article; ${fix}`, [...base, 'language']);
    return [];
  }
  return variantsFor(names, { plain, perLanguage, own }, base, defaults, report);
}

/** The variants of an entry with its languages known; undefined values reported. */
function variantsFor(
  names: string[],
  parts: { plain: Record<string, unknown>; perLanguage: ReturnType<typeof splitEntry>['perLanguage']; own: Map<string, string> },
  base: DataPath,
  defaults: LanguageDefaults,
  report: LanguageProblem,
): LanguageVariant[] {
  const { plain, perLanguage, own } = parts;
  const identities = new Set(names.map(languageIdentity));
  let ok = true;
  for (const [field, byLanguage] of perLanguage) {
    for (const { language, path } of byLanguage.values()) {
      if (identities.has(languageIdentity(language))) continue;
      report(`${field}.${language}`, `gives a ${field} for "${language}", which is not in \`languages\` (${names.join(', ')}); add it there, or remove this value`, path);
      ok = false;
    }
  }
  const locales = localesOf(names, own, defaults, [...base, 'languages'], report);
  if (!ok || locales.includes(undefined)) return [];
  const keywords = perLanguage.get('keyword');
  // The entry's keyword: as written, or (given only per language) the first language's.
  const fallback = plain.keyword ?? plain.targetKeyword ?? keywords?.get(languageIdentity(names[0]!))?.value ?? keywords?.values().next().value?.value;
  return names.map((language, index) => {
    const identity = languageIdentity(language);
    const variant: Record<string, unknown> = { ...plain, keyword: fallback };
    delete variant.targetKeyword;
    for (const [field, byLanguage] of defaults.perLanguage) if (byLanguage.has(identity) && variant[field] === undefined) variant[field] = byLanguage.get(identity);
    for (const [field, byLanguage] of perLanguage) if (byLanguage.has(identity)) variant[field] = byLanguage.get(identity)!.value;
    variant.language = language;
    const locale = locales[index]!;
    return { item: variant, language: { language, locale, dir: textDirection(locale), keywordFallback: index > 0 && keywords?.has(identity) !== true } };
  });
}
