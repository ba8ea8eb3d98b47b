// A translation's entry: locale, translationKey, translations and dir on its data, and its HTML in a <div lang dir>; an entry without languages as it was.
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import { placeholderEntry } from '../../src/loader/article-entry.js';
import { inItsLanguage, translationFields } from '../../src/loader/translation-entry.js';

const [english, arabic] = parseManifest('articles:\n  - keyword: { English: coffee, Arabic: قهوة }\n    languages: [English, Arabic]\n', 'articles.yaml').specs;
const [plain] = parseManifest('articles:\n  - coffee\n', 'articles.yaml').specs;

describe('a translation entry', () => {
  it('should carry its locale, key, siblings and direction', () => {
    expect(translationFields(arabic!.translation)).toEqual({ locale: 'ar', translationKey: 'coffee', translations: { en: 'en/coffee', ar: 'ar/qhwt' }, dir: 'rtl' });
    expect(translationFields(english!.translation)).toMatchObject({ locale: 'en', dir: 'ltr' });
  });

  it('should have null and {} without languages, and its HTML unwrapped', () => {
    expect(translationFields(plain!.translation)).toEqual({ locale: null, translationKey: null, translations: {}, dir: null });
    expect(inItsLanguage('<p>x</p>', plain!.translation)).toBe('<p>x</p>');
  });

  it('should wrap a translation in its language and direction', () => {
    expect(inItsLanguage('<p>x</p>', arabic!.translation)).toBe('<div lang="ar" dir="rtl"><p>x</p></div>');
    const entry = placeholderEntry({ slug: arabic!.slug, keyword: arabic!.keyword, request: arabic!.request, status: 'queued', statusDetail: null, progress: 0, error: null, lockEntry: undefined, generateDigest: () => 'd', site: arabic!, review: 'not-required', parts: [] });
    expect(entry.id).toBe('ar/qhwt');
    expect(entry.data).toMatchObject({ locale: 'ar', dir: 'rtl', translationKey: 'coffee' });
    expect(entry.rendered.html.startsWith('<div lang="ar" dir="rtl"><div class="article-placeholder"')).toBe(true);
  });
});
