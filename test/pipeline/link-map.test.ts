// The local link map: built from the manifest's articles and the user's links, self excluded.

import { describe, expect, test } from 'vitest';
import { buildLinkMap, PipelineOptionError } from '../../src/pipeline/index.js';

const url = (slug: string) => `/articles/${slug}/`;
const articles = [
  { slug: 'grinders', keyword: 'coffee grinder', title: 'The Best Coffee Grinders' },
  { slug: 'descaling', keyword: 'descale espresso machine', title: 'How to Descale' },
];

describe('buildLinkMap', () => {
  test('should link each article’s keyword and title to its URL', () => {
    expect(buildLinkMap({ articles, url }).entries).toEqual([
      { phrase: 'coffee grinder', url: '/articles/grinders/', slug: 'grinders' },
      { phrase: 'descale espresso machine', url: '/articles/descaling/', slug: 'descaling' },
      { phrase: 'The Best Coffee Grinders', url: '/articles/grinders/', slug: 'grinders' },
      { phrase: 'How to Descale', url: '/articles/descaling/', slug: 'descaling' },
    ]);
  });

  test('should leave out the excluded article', () => {
    expect(buildLinkMap({ articles, url, exclude: 'grinders' }).entries.map((entry) => entry.slug)).toEqual(['descaling', 'descaling']);
  });

  test('should leave out user links to the excluded article’s URL', () => {
    const map = buildLinkMap({ articles, url, links: { burrs: '/articles/grinders', other: '/other/' }, exclude: 'grinders' });
    expect(map.entries.map((entry) => entry.phrase)).not.toContain('burrs');
    expect(map.entries.map((entry) => entry.phrase)).toContain('other');
  });

  test('should let user links win over article phrases, case-insensitively', () => {
    const map = buildLinkMap({ articles, url, links: [{ phrase: 'Coffee Grinder', url: '/my-grinder-page/' }] });
    expect(map.entries.filter((entry) => entry.phrase.toLowerCase() === 'coffee grinder')).toEqual([{ phrase: 'Coffee Grinder', url: '/my-grinder-page/' }]);
  });

  test('should accept user links as an object or a list', () => {
    expect(buildLinkMap({ links: { a1: '/a/' } }).entries).toEqual(buildLinkMap({ links: [{ phrase: 'a1', url: '/a/' }] }).entries);
  });

  test('should collapse whitespace and ignore one-character phrases', () => {
    expect(buildLinkMap({ links: { '  coffee \n grinder ': '/g/', x: '/x/' } }).entries).toEqual([{ phrase: 'coffee grinder', url: '/g/' }]);
  });

  test('should require url(slug) when articles are given', () => {
    expect(() => buildLinkMap({ articles })).toThrow(PipelineOptionError);
  });

  test('should reject a link without a URL', () => {
    expect(() => buildLinkMap({ links: { phrase: '' } })).toThrow(/links\[0\]/);
  });

  test('should return a frozen map', () => {
    expect(Object.isFrozen(buildLinkMap({ articles, url }).entries)).toBe(true);
  });
});
