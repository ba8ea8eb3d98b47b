// Canonical JSON: keys sorted at every level, and a refusal (not a silent `null`) for anything JSON cannot hold exactly, so no two requests share a hash by accident.
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonHash, CanonicalJsonError, canonicalValue } from '../../src/contract/canonical-json.js';
import { articleRequestSchema } from '../../src/contract/request-schema.js';
import { hashArticleRequest } from '../../src/emulator/index.js';
import { canonicalRequest, requestHash } from '../../src/sync/index.js';

describe('canonicalJson', () => {
  it('should sort keys at every level, in lists too, and leave out undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: true, y: null }], c: 'x' }, e: undefined })).toBe('{"a":{"c":"x","d":[{"y":null,"z":true}]},"b":1}');
  });

  it('should write the text JSON.stringify writes of the sorted copy, array-index keys and all', () => {
    const values: unknown[] = [
      { b: 1, a: { d: [{ z: true, y: null }], c: 'x' }, e: undefined },
      { '10': 'ten', '9': 'nine', '01': 'not an index', a: 1, '4294967294': 'last index', '4294967295': 'not an index', '-1': 'no', '1.5': 'no' },
      { 'é': 1, e: 2, 'Z': 3, '\u2028': 4, '"q"': 5, 'emoji 🍰': [1, -0, 1e21, 0.1, 'a\u0000b'] },
      JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
      [[], {}, [{}], { a: [] }],
      'text',
      `a long text, "quoted" and\tescaped ${'é'.repeat(50)}`,
      3,
      null,
    ];
    // Twice: the second time, short texts and keys come quoted from the map.
    for (let round = 0; round < 2; round += 1) for (const value of values) expect(canonicalJson(value)).toBe(JSON.stringify(canonicalValue(value)));
    // Left out at the top only.
    expect(canonicalJson({ b: 1, a: { b: 2 }, c: 3 }, { omit: ['b', 'c'] })).toBe('{"a":{"b":2}}');
  });

  it.each([
    ['NaN', { maxImages: Number.NaN }, 'maxImages'],
    ['Infinity', { maxImages: Number.POSITIVE_INFINITY }, 'maxImages'],
    ['-Infinity', { outline: [{ depth: Number.NEGATIVE_INFINITY }] }, 'outline[0].depth'],
    ['a BigInt', { count: 10n }, 'count'],
    ['a date', { at: new Date(0) }, 'at'],
    ['a function', { f: () => 1 }, 'f'],
    ['undefined in a list', { urls: ['https://a.example', undefined] }, 'urls[1]'],
  ])('should refuse %s, naming where it is, instead of writing null or {}', (_, value, path) => {
    expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
    expect(() => canonicalJson(value)).toThrow(expect.objectContaining({ code: 'not_canonical_json', path }));
  });

  it('should never give null and a non-finite number the same text (both copies did: a hash collision)', () => {
    expect(canonicalJson({ maxImages: null })).toBe('{"maxImages":null}');
    expect(() => canonicalJson({ maxImages: Number.NaN })).toThrow(CanonicalJsonError);
  });
});

describe('one canonical JSON for the lock file and the emulator', () => {
  // With the non-content members too: requestHash leaves them out while writing, canonicalRequest by copying.
  const request = { targetKeyword: 'best pour over kettles', articleLength: 'long' as const, polishSettings: { humanize: true }, integrationId: 'int-1', webhookUrl: 'https://example.com/hook' };

  it('should hash the lock file\'s canonical request exactly as JSON.stringify of the sorted request did', () => {
    const canonical = canonicalRequest(request);
    expect(Object.keys(canonical)).not.toContain('webhookUrl');
    expect(canonicalJson(canonical)).toBe(JSON.stringify(canonical));
    expect(requestHash(request)).toBe(`sha256:${canonicalJsonHash(canonical)}`);
  });

  it('should give the emulator\'s ledger hash from the same canonical JSON of the parsed request', () => {
    expect(hashArticleRequest(request)).toBe(canonicalJsonHash(articleRequestSchema.parse(request)));
  });
});
