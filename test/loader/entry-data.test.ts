// The manifest's own data fields: no clash with a built-in entry field, valid against dataSchema, every problem naming file, entry and field.
import { z } from 'astro/zod';
import { describe, expect, it } from 'vitest';
import { checkEntryData } from '../../src/loader/entry-data.js';
import { formatManifestProblem, ManifestError, parseManifest } from '../../src/manifest/index.js';

const manifest = parseManifest(
  ['articles:', '  - keyword: best trail shoes', '    data: { category: shoes, rating: 5 }', '  - keyword: how to lace boots', '    data: { title: Lacing, rating: high }', ''].join('\n'),
  'articles.yaml',
);

function problems(schema?: Parameters<typeof checkEntryData>[1]): string[] {
  try {
    checkEntryData(manifest, schema);
    return [];
  } catch (error) {
    if (error instanceof ManifestError) return error.problems.map(formatManifestProblem);
    throw error;
  }
}

describe('checkEntryData', () => {
  it('should refuse a data field named like a built-in entry field', () => {
    expect(problems()).toEqual(['articles.yaml:4 articles[1] "how to lace boots" → data.title: clashes with the built-in entry field `title` (entry.data.title); give your field another name']);
  });

  it('should check every entry against dataSchema, naming the entry and the field', () => {
    const schema = z.object({ category: z.enum(['shoes', 'boots']), rating: z.number() });
    const found = problems(schema);
    expect(found).toContain('articles.yaml:4 articles[1] "how to lace boots" → data.title: clashes with the built-in entry field `title` (entry.data.title); give your field another name');
    expect(found.filter((line) => line.includes('(dataSchema)')).map((line) => line.replace(/: [^→]*\(dataSchema\)$/, ''))).toEqual([
      'articles.yaml:4 articles[1] "how to lace boots" → data.category',
      'articles.yaml:4 articles[1] "how to lace boots" → data.rating',
    ]);
  });

  it('should accept data that passes', () => {
    const good = parseManifest('articles:\n  - keyword: boots\n    data: { category: boots, rating: 4 }\n', 'articles.yaml');
    expect(() => checkEntryData(good, z.object({ category: z.string(), rating: z.number() }))).not.toThrow();
  });
});
