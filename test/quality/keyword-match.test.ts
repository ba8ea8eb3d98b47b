// The keyword tolerance rule: case, spacing, simple plurals, word order, number words and function words.
import { describe, expect, it } from 'vitest';
import { containsKeyword, keywordPattern } from '../../src/quality/index.js';

const contains = (text: string, keyword: string) => containsKeyword(text, keywordPattern(keyword));

describe('containsKeyword', () => {
  it('should ignore case and spacing', () => {
    expect(contains('The Perfect POUR-OVER Coffee', 'pour over coffee')).toBe(true);
    expect(contains('Pourover coffee at home', 'pour over coffee')).toBe(true);
  });

  it('should treat a simple plural as the same word', () => {
    expect(contains('The best hiking trail near town', 'best hiking trails')).toBe(true);
    expect(contains('Five coffee shops', 'coffee shop')).toBe(true);
    expect(contains('Cities to visit', 'city to visit')).toBe(true);
  });

  it('should accept another word order within a short span', () => {
    expect(contains('The 7 Best Hiking Trails', 'best 7 hiking trails')).toBe(true);
    expect(contains('Hiking is fun. Later, much later, after lunch and a nap and a long talk, we found the best trails.', 'best hiking trails')).toBe(false);
  });

  it('should read English number words as digits', () => {
    expect(contains('The 10 Best Pour Over Kettles', 'ten best pour over kettles')).toBe(true);
  });

  it('should not need function words', () => {
    expect(contains('The 10 Best Coffee Shops in Lyon', 'coffee shops near lyon')).toBe(true);
  });

  it('should miss a keyword whose content words are not all there', () => {
    expect(contains('Tacos: The Complete Guide', 'best tacos in austin')).toBe(false);
  });

  it('should match Chinese and Japanese keywords as substrings', () => {
    expect(contains('美味しいコーヒーの淹れ方ガイド', 'コーヒーの淹れ方')).toBe(true);
    expect(contains('紅茶の淹れ方', 'コーヒーの淹れ方')).toBe(false);
  });
});
