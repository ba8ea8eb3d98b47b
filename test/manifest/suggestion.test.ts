// The one did-you-mean helper: typos, swapped letters, case and separators, aliases, and nothing when nothing is close.
import { describe, expect, it } from 'vitest';
import { didYouMean, suggestName } from '../../src/manifest/index.js';
import { ARTICLE_TYPES } from '../../src/contract/request-schema.js';

describe('suggestName', () => {
  it('should find the name meant', () => {
    expect(suggestName('listcle', ARTICLE_TYPES)).toBe('listicle');
    expect(suggestName('lisitcle', ARTICLE_TYPES)).toBe('listicle');
    expect(suggestName('plna', ['plan', 'sync', 'status'])).toBe('plan');
    expect(suggestName('bugdet', ['budget', 'frozen'])).toBe('budget');
    expect(suggestName('Article_Type', ['articleType', 'language'])).toBe('articleType');
    expect(suggestName('lang', ['articleType', 'language'])).toBe('language');
  });

  it('should suggest nothing when nothing is close', () => {
    expect(suggestName('zzzzzz', ['budget', 'frozen'])).toBeUndefined();
    expect(suggestName('name', ['tone'])).toBeUndefined();
    expect(didYouMean(undefined, '; remove it')).toBe('; remove it');
    expect(didYouMean('plan')).toBe('; did you mean "plan"?');
  });
});
