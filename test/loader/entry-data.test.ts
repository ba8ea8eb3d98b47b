// The manifest's own data fields: valid against dataSchema, every problem naming file, entry and field; the built-in names the manifest refuses are the entry schema's own.
import { z } from 'astro/zod';
import { describe, expect, it } from 'vitest';
import { checkEntryData } from '../../src/loader/entry-data.js';
import { articleEntrySchema, ENTRY_DETAIL_FIELDS } from '../../src/loader/entry-schema.js';
import { BUILT_IN_ENTRY_FIELDS } from '../../src/manifest/built-in-entry-fields.js';
import { formatManifestProblem, ManifestError, parseManifest } from '../../src/manifest/index.js';

const manifest = parseManifest(
  ['articles:', '  - keyword: best trail shoes', '    data: { category: shoes, rating: 5 }', '  - keyword: how to lace boots', '    data: { headline: Lacing, rating: high }', ''].join('\n'),
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
  it('should accept any data without a dataSchema', () => {
    expect(problems()).toEqual([]);
  });

  it('should check every entry against dataSchema, naming the entry and the field', () => {
    const schema = z.object({ category: z.enum(['shoes', 'boots']), rating: z.number() });
    expect(problems(schema).map((line) => line.replace(/: [^→]*\(dataSchema\)$/, ''))).toEqual([
      'articles.yaml:4 articles[1] "how to lace boots" → data.category',
      'articles.yaml:4 articles[1] "how to lace boots" → data.rating',
    ]);
  });

  it('should accept data that passes', () => {
    const good = parseManifest('articles:\n  - keyword: boots\n    data: { category: boots, rating: 4 }\n', 'articles.yaml');
    expect(() => checkEntryData(good, z.object({ category: z.string(), rating: z.number() }))).not.toThrow();
  });
});

describe('the built-in entry fields', () => {
  it('should be the entry schema\'s own fields and those entryData puts back, the names the manifest refuses for `data:`', () => {
    const shape = (articleEntrySchema as unknown as { shape: Record<string, unknown> }).shape;
    const details = Object.values(ENTRY_DETAIL_FIELDS).flatMap((fields) => Object.keys(fields));
    expect([...new Set([...Object.keys(shape), ...details])].sort()).toEqual([...BUILT_IN_ENTRY_FIELDS].sort());
  });
});
