// The site's own fields on an entry (data, draft, publishDate): read from YAML, JSON and CSV, merged with defaults, checked, and never sent or hashed.
import { describe, expect, it } from 'vitest';
import { formatManifestProblem, parseManifest } from '../../src/manifest/index.js';
import { refusal as refusalOf } from './refusal.js';
import { requestHash } from '../../src/sync/index.js';

const refusal = (text: string, file = 'articles.yaml'): string[] => refusalOf(text, file).problems.map(formatManifestProblem);

describe('site fields', () => {
  const yaml = [
    'defaults:',
    '  data: { author: Ana, category: gear }',
    '  publishDate: 2026-12-01',
    'articles:',
    '  - keyword: best trail shoes',
    '    data: { category: shoes, tags: [trail, running] }',
    '  - keyword: how to lace boots',
    '    draft: true',
    '    publishDate: 2027-01-15T09:30:00+01:00',
    '  - plain keyword',
    '',
  ].join('\n');

  it('should merge each entry\'s own fields over the defaults, member by member for data', () => {
    const { specs } = parseManifest(yaml, 'articles.yaml');
    expect(specs.map(({ slug, data, draft, publishDate }) => ({ slug, data, draft, publishDate: publishDate?.toISOString() }))).toEqual([
      { slug: 'best-trail-shoes', data: { author: 'Ana', category: 'shoes', tags: ['trail', 'running'] }, draft: false, publishDate: '2026-12-01T00:00:00.000Z' },
      { slug: 'how-to-lace-boots', data: { author: 'Ana', category: 'gear' }, draft: true, publishDate: '2027-01-15T08:30:00.000Z' },
      { slug: 'plain-keyword', data: { author: 'Ana', category: 'gear' }, draft: false, publishDate: '2026-12-01T00:00:00.000Z' },
    ]);
  });

  it('should never send them or let them change the request hash', () => {
    const withFields = parseManifest(yaml, 'articles.yaml').specs;
    const without = parseManifest('articles:\n  - best trail shoes\n  - how to lace boots\n  - plain keyword\n', 'articles.yaml').specs;
    for (const [index, spec] of withFields.entries()) {
      expect(Object.keys(spec.request)).not.toEqual(expect.arrayContaining(['data']));
      expect(spec.request).not.toHaveProperty('draft');
      expect(spec.request).not.toHaveProperty('publishDate');
      expect(requestHash(spec.request)).toBe(requestHash(without[index]!.request));
    }
  });

  it('should read data.<field>, draft and publishDate columns from a CSV', () => {
    const csv = 'keyword,data.category,Data.Author,draft,publishDate\nbest trail shoes,shoes,Ana,yes,2026-12-24\nhow to lace boots,,,no,\n';
    const { specs } = parseManifest(csv, 'articles.csv');
    expect(specs.map(({ data, draft, publishDate }) => ({ data, draft, publishDate: publishDate?.toISOString() }))).toEqual([
      { data: { category: 'shoes', Author: 'Ana' }, draft: true, publishDate: '2026-12-24T00:00:00.000Z' },
      { data: {}, draft: false, publishDate: undefined },
    ]);
  });

  it('should refuse values that are not what the field holds, naming the entry and the field', () => {
    expect(refusal(['articles:', '  - keyword: best shoes', '    data: shoes', '    draft: maybe', '    publishDate: 2026-02-30', '  - keyword: boots', '    publishDate: tomorrow', ''].join('\n'))).toEqual([
      'articles.yaml:3 articles[0] "best shoes" → data: must be a mapping of your own fields (e.g. `data: { category: gear, author: Ana }`), not a single value',
      'articles.yaml:4 articles[0] "best shoes" → draft: must be true or false',
      'articles.yaml:5 articles[0] "best shoes" → publishDate: "2026-02-30" is not a date of the calendar; check the month and the day',
      'articles.yaml:7 articles[1] "boots" → publishDate: "tomorrow" is not a date; write it as YYYY-MM-DD (e.g. 2026-12-01), or with a time: 2026-12-01T09:00:00Z',
    ]);
    expect(refusal('defaults:\n  draft: 1\narticles:\n  - boots\n')).toEqual(['articles.yaml:2 defaults → draft: must be true or false']);
  });

  it('should refuse a data field named like a built-in entry field, in an entry, in defaults and in a CSV column', () => {
    expect(refusal(['articles:', '  - keyword: best trail shoes', '    data: { category: shoes }', '  - keyword: how to lace boots', '    data: { title: Lacing, rating: high }', ''].join('\n'))).toEqual([
      'articles.yaml:5 articles[1] "how to lace boots" → data.title: clashes with the built-in entry field `title` (entry.data.title); give your field another name',
    ]);
    expect(refusal('defaults:\n  data: { draft: no, author: Ana }\narticles:\n  - boots\n')).toEqual([
      'articles.yaml:2 defaults → data.draft: clashes with the built-in entry field `draft` (entry.data.draft); give your field another name',
    ]);
    expect(refusal('keyword,data.slug\nboots,b\n', 'articles.csv')).toEqual([expect.stringContaining('→ data.slug: clashes with the built-in entry field `slug`')]);
  });

  it('should suggest data.<field> for a CSV column that is no request parameter', () => {
    expect(refusal('keyword,category\nboots,gear\n', 'articles.csv')[0]).toContain('name it data.category to keep it as your own data on the entry');
  });
});
