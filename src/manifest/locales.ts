// The service's language names and their BCP 47 codes (the one table docs/languages.md shows), which way each script runs, and a locale code checked.

/**
 * Language name (as the service takes it in `language`) → BCP 47 code. Names are matched ignoring
 * case and spacing. A language missing here needs `locale: { <Language>: <code> }` in the manifest.
 * docs/languages.md shows this table; a test keeps the two the same.
 */
export const LOCALE_TABLE: Readonly<Record<string, string>> = Object.freeze({
  English: 'en',
  'American English': 'en-US',
  'British English': 'en-GB',
  German: 'de',
  'Swiss German': 'de-CH',
  'Austrian German': 'de-AT',
  French: 'fr',
  'Canadian French': 'fr-CA',
  Spanish: 'es',
  'Mexican Spanish': 'es-MX',
  'Latin American Spanish': 'es-419',
  Italian: 'it',
  Portuguese: 'pt',
  'Brazilian Portuguese': 'pt-BR',
  'European Portuguese': 'pt-PT',
  Dutch: 'nl',
  Swedish: 'sv',
  Norwegian: 'no',
  Danish: 'da',
  Finnish: 'fi',
  Icelandic: 'is',
  Polish: 'pl',
  Czech: 'cs',
  Slovak: 'sk',
  Slovenian: 'sl',
  Croatian: 'hr',
  Serbian: 'sr',
  Bulgarian: 'bg',
  Romanian: 'ro',
  Hungarian: 'hu',
  Greek: 'el',
  Turkish: 'tr',
  Russian: 'ru',
  Ukrainian: 'uk',
  Lithuanian: 'lt',
  Latvian: 'lv',
  Estonian: 'et',
  Catalan: 'ca',
  Arabic: 'ar',
  Hebrew: 'he',
  Persian: 'fa',
  Farsi: 'fa',
  Urdu: 'ur',
  Hindi: 'hi',
  Bengali: 'bn',
  Tamil: 'ta',
  Telugu: 'te',
  Marathi: 'mr',
  Thai: 'th',
  Vietnamese: 'vi',
  Indonesian: 'id',
  Malay: 'ms',
  Filipino: 'fil',
  Tagalog: 'fil',
  Chinese: 'zh',
  'Simplified Chinese': 'zh-Hans',
  'Chinese (Simplified)': 'zh-Hans',
  'Traditional Chinese': 'zh-Hant',
  'Chinese (Traditional)': 'zh-Hant',
  Cantonese: 'yue',
  Japanese: 'ja',
  Korean: 'ko',
  Swahili: 'sw',
  Afrikaans: 'af',
});

/** Scripts written right to left: an article whose locale uses one gets `dir="rtl"` (Arabic, Hebrew, Persian, Urdu, …). */
export const RTL_SCRIPTS: ReadonlySet<string> = new Set(['Arab', 'Hebr', 'Syrc', 'Thaa', 'Nkoo', 'Adlm', 'Rohg']);

function nameKey(language: string): string {
  return language.trim().replace(/\s+/gu, ' ').toLowerCase();
}

const BY_NAME = new Map(Object.entries(LOCALE_TABLE).map(([name, code]) => [nameKey(name), code]));

/** The table's code for a language name (case and spacing ignored), or undefined when the table lacks it. */
export function tableLocale(language: string): string | undefined {
  return BY_NAME.get(nameKey(language));
}

/** The same language name, whatever its case and spacing: "german" and "German" are one language. */
export function languageIdentity(language: string): string {
  return nameKey(language);
}

/** `ltr` or `rtl`, from the script the locale is written in (its own, or the likeliest for its language). */
export function textDirection(locale: string): 'ltr' | 'rtl' {
  try {
    const script = new Intl.Locale(locale).maximize().script;
    return script !== undefined && RTL_SCRIPTS.has(script) ? 'rtl' : 'ltr';
  } catch {
    return 'ltr';
  }
}

let displayNames: Intl.DisplayNames | undefined;

/**
 * A locale code given by the owner, in canonical form (`EN-gb` → `en-GB`), or why it cannot be used: it must be
 * well-formed BCP 47 (`Intl.getCanonicalLocales`) and its language one that Node's ICU data knows (`xx` is not).
 */
export function checkedLocale(code: string): { locale: string } | { problem: string } {
  let locale: string;
  try {
    [locale = ''] = Intl.getCanonicalLocales(code.trim());
  } catch {
    return { problem: `"${code}" is not a BCP 47 language code; write one such as "de", "pt-BR" or "zh-Hant"` };
  }
  displayNames ??= new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
  const language = new Intl.Locale(locale).language;
  if (displayNames.of(language) === undefined) {
    return { problem: `"${code}" names no known language ("${language}" is not an ISO 639 code); write one such as "de", "pt-BR" or "zh-Hant"` };
  }
  return { locale };
}
