// The default slug per script of the locale table (transliterated where it reads, as written where it does not),
// `translations.slugs` overriding it, and a lock file's recorded slugs winning over the changed default.
import { describe, expect, it } from 'vitest';
import { deriveSlug, parseManifest, validateSlug, withRecordedSlugs, type Manifest } from '../../src/manifest/index.js';
import { formerSlug } from '../../src/manifest/former-slugs.js';
import { LOCALE_TABLE } from '../../src/manifest/locales.js';

/**
 * One row per script the locale table's languages are written in: a keyword, its default slug, and whether that slug is
 * transliterated. docs/languages.md gives the same rule per script.
 */
const BY_SCRIPT: Record<string, { language: string; keyword: string; slug: string; transliterated: boolean }> = {
  Latn: { language: 'Vietnamese', keyword: 'Cà phê sữa đá', slug: 'ca-phe-sua-da', transliterated: true },
  Cyrl: { language: 'Russian', keyword: 'Москва отели', slug: 'moskva-oteli', transliterated: true },
  Grek: { language: 'Greek', keyword: 'Ελληνικός καφές', slug: 'ellinikos-kafes', transliterated: true },
  Arab: { language: 'Arabic', keyword: 'قهوة بالتقطير', slug: 'قهوة-بالتقطير', transliterated: false },
  Hebr: { language: 'Hebrew', keyword: 'איך להכין קפה', slug: 'איך-להכין-קפה', transliterated: false },
  Deva: { language: 'Hindi', keyword: 'घर पर कॉफी', slug: 'घर-पर-कॉफी', transliterated: false },
  Beng: { language: 'Bengali', keyword: 'বাড়িতে কফি', slug: 'বাড়িতে-কফি', transliterated: false },
  Taml: { language: 'Tamil', keyword: 'வீட்டில் காபி', slug: 'வீட்டில்-காபி', transliterated: false },
  Telu: { language: 'Telugu', keyword: 'ఇంట్లో కాఫీ', slug: 'ఇంట్లో-కాఫీ', transliterated: false },
  Thai: { language: 'Thai', keyword: 'กาแฟ ดริป', slug: 'กาแฟ-ดริป', transliterated: false },
  Hans: { language: 'Simplified Chinese', keyword: '手冲 咖啡', slug: '手冲-咖啡', transliterated: false },
  Hant: { language: 'Traditional Chinese', keyword: '手沖 咖啡', slug: '手沖-咖啡', transliterated: false },
  Jpan: { language: 'Japanese', keyword: 'ハンドドリップ コーヒー', slug: 'ハンドドリップ-コーヒー', transliterated: false },
  Kore: { language: 'Korean', keyword: '집에서 커피', slug: '집에서-커피', transliterated: false },
};

const scriptOf = (code: string) => new Intl.Locale(code).maximize().script!;
const yaml = (...lines: string[]) => parseManifest(`${lines.join('\n')}\n`, 'articles.yaml');

describe('the default slug per script', () => {
  it('should have a row for every script of the locale table, in a language written in it', () => {
    const scripts = new Set(Object.values(LOCALE_TABLE).map(scriptOf));
    expect(new Set(Object.keys(BY_SCRIPT))).toEqual(scripts);
    for (const [script, { language }] of Object.entries(BY_SCRIPT)) expect(scriptOf(LOCALE_TABLE[language]!), language).toBe(script);
  });

  it.each(Object.entries(BY_SCRIPT))('%s: as a translation and as a one-language entry', (_script, { language, keyword, slug, transliterated }) => {
    expect(deriveSlug(keyword)).toBe(slug);
    expect(validateSlug(slug)).toBeUndefined();
    expect(/^[a-z0-9-]+$/.test(slug)).toBe(transliterated);
    const locale = LOCALE_TABLE[language]!;
    const { specs } = yaml('articles:', `  - keyword: { English: coffee, ${language}: ${keyword} }`, `    languages: [English, ${language}]`);
    expect(specs.map((spec) => spec.slug)).toEqual(['en/coffee', `${locale}/${slug}`]);
    expect(yaml('articles:', `  - ${keyword}`).specs[0]!.slug).toBe(slug);
  });

  it('should transliterate a whole script alike: a Russian word with a soft or hard sign too', () => {
    expect(deriveSlug('учитель музыки')).toBe('uchitel-muzyki');
    expect(deriveSlug('объявление')).toBe('obyavlenie');
    // Earlier versions kept these in Cyrillic: the soft sign alone has no Latin spelling.
    expect(formerSlug('учитель музыки', false)).toBe('учитель-музыки');
  });

  it('should keep a mixed keyword as written when one of its scripts is, lower-casing the Latin words', () => {
    expect(deriveSlug('Everything You Need to Know About قهوة بالتقطير')).toBe('everything-you-need-to-know-about-قهوة-بالتقطير');
  });

  it('should remove punctuation and keep the slug safe as a path segment and a file name', () => {
    for (const keyword of ['قهوة: بالتقطير؟', 'איך/להכין קפה!', 'コーヒー（入門）', '"커피" 만들기...']) {
      const slug = deriveSlug(keyword);
      expect(validateSlug(slug), `${keyword} → ${slug}`).toBeUndefined();
      expect(slug).not.toMatch(/[/\\?:!"（）.؟]/u);
    }
    expect(deriveSlug('قهوة: بالتقطير؟')).toBe('قهوة-بالتقطير');
  });
});

describe('translations.slugs', () => {
  const arabic = (setting: string | undefined) =>
    yaml(...(setting === undefined ? [] : ['translations:', `  slugs: ${setting}`]), 'articles:', '  - keyword: { English: Moscow coffee, Arabic: قهوة بالتقطير, Russian: Москва кофе }', '    languages: [English, Arabic, Russian]').specs.map((spec) => spec.slug);

  it('should override the default for translations: every script transliterated, or every script as written', () => {
    expect(arabic(undefined)).toEqual(['en/moscow-coffee', 'ar/قهوة-بالتقطير', 'ru/moskva-kofe']);
    expect(arabic('transliterate')).toEqual(['en/moscow-coffee', 'ar/qhwt-baltqtyr', 'ru/moskva-kofe']);
    expect(arabic('unicode')).toEqual(['en/moscow-coffee', 'ar/قهوة-بالتقطير', 'ru/москва-кофе']);
  });

  it('should keep a script that has no Latin spelling as written, even with transliterate', () => {
    const { specs } = yaml('translations:', '  slugs: transliterate', 'articles:', '  - keyword: { English: coffee, Japanese: コーヒー }', '    languages: [English, Japanese]');
    expect(specs[1]!.slug).toBe('ja/コーヒー');
  });

  it('should give an explicit slug: as written, and no former slug', () => {
    const { specs } = yaml('articles:', '  - keyword: قهوة بالتقطير', '    slug: pour-over');
    expect(specs[0]).toMatchObject({ slug: 'pour-over' });
    expect(specs[0]!.formerSlug).toBeUndefined();
  });
});

describe('former slugs', () => {
  it('should record the slug earlier versions derived only where it differs', () => {
    const { specs } = yaml('articles:', '  - قهوة بالتقطير', '  - Москва отели', '  - 東京 ラーメン');
    expect(specs.map((spec) => [spec.slug, spec.formerSlug])).toEqual([
      ['قهوة-بالتقطير', 'qhwt-baltqtyr'],
      ['moskva-oteli', undefined],
      ['東京-ラーメン', undefined],
    ]);
  });

  it('should give no former slug when the owner sets translations.slugs (the setting is the owner\'s change, which moves)', () => {
    const { specs } = yaml('translations:', '  slugs: unicode', 'articles:', '  - keyword: { English: coffee, Arabic: قهوة }', '    languages: [English, Arabic]');
    expect(specs.map((spec) => spec.formerSlug)).toEqual([undefined, undefined]);
  });

  it('should make a translation\'s former id and key with the pattern', () => {
    const { specs } = yaml('translations:', '  id: "{key}/{locale}"', 'articles:', '  - keyword: { Arabic: قهوة, English: coffee }', '    languages: [Arabic, English]');
    expect(specs.map((spec) => [spec.slug, spec.formerSlug, spec.translation?.key, spec.translation?.formerKey])).toEqual([
      ['قهوة/ar', 'qhwt/ar', 'قهوة', 'qhwt'],
      ['قهوة/en', 'qhwt/en', 'قهوة', 'qhwt'],
    ]);
  });
});

describe('withRecordedSlugs', () => {
  const site = (): Manifest => yaml('articles:', '  - keyword: { English: coffee, Arabic: قهوة بالتقطير, Hebrew: קפה }', '    languages: [English, Arabic, Hebrew]', '  - قهوة مقطرة');
  const recorded = (...slugs: string[]) => async () => new Set(slugs);

  it('should keep the recorded former slug, its group listing it, and leave a new article on the new default', async () => {
    const kept = await withRecordedSlugs(site(), recorded('en/coffee', 'ar/qhwt-baltqtyr', 'qhwt-mqtrt'));
    expect(kept.specs.map((spec) => spec.slug)).toEqual(['en/coffee', 'ar/qhwt-baltqtyr', 'he/קפה', 'qhwt-mqtrt']);
    for (const spec of kept.specs.slice(0, 3)) expect(spec.translation?.translations).toEqual({ en: 'en/coffee', ar: 'ar/qhwt-baltqtyr', he: 'he/קפה' });
    expect(kept.specs.every((spec) => spec.formerSlug === undefined)).toBe(true);
  });

  it('should take the new slug when the lock file records it, or records neither', async () => {
    expect((await withRecordedSlugs(site(), recorded('ar/قهوة-بالتقطير', 'ar/qhwt-baltqtyr'))).specs[1]!.slug).toBe('ar/قهوة-بالتقطير');
    expect((await withRecordedSlugs(site(), recorded())).specs.map((spec) => spec.slug)).toEqual(site().specs.map((spec) => spec.slug));
  });

  it('should not read the lock file when no slug changed', async () => {
    const manifest = yaml('articles:', '  - coffee', '  - Москва отели');
    let asked = false;
    const same = await withRecordedSlugs(manifest, async () => {
      asked = true;
      return new Set(['coffee']);
    });
    expect(asked).toBe(false);
    expect(same).toBe(manifest);
  });

  it('should leave a former slug another entry now claims to that entry', async () => {
    const manifest = yaml('articles:', '  - قهوة مقطرة', '  - keyword: filter coffee', '    slug: qhwt-mqtrt');
    const kept = await withRecordedSlugs(manifest, recorded('qhwt-mqtrt'));
    expect(kept.specs.map((spec) => spec.slug)).toEqual(['قهوة-مقطرة', 'qhwt-mqtrt']);
  });

  it('should keep the former key of a group whose member keeps its former id', async () => {
    const manifest = yaml('translations:', '  id: "{key}/{locale}"', 'articles:', '  - keyword: { Arabic: قهوة, English: coffee }', '    languages: [Arabic, English]');
    const kept = await withRecordedSlugs(manifest, recorded('qhwt/ar', 'qhwt/en'));
    expect(kept.specs.map((spec) => [spec.slug, spec.translation?.key, spec.translation?.translations])).toEqual([
      ['qhwt/ar', 'qhwt', { ar: 'qhwt/ar', en: 'qhwt/en' }],
      ['qhwt/en', 'qhwt', { ar: 'qhwt/ar', en: 'qhwt/en' }],
    ]);
  });
});
