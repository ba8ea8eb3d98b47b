// An entry's inputs: the store digest and the processed record's key both come from one value, and both stay what
// the code before that value made (an entry is not rewritten, a committed record is still a hit, after an upgrade).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ArticleSpec } from '../../src/manifest/index.js';
import { entryDigest, entryInputs, entryProcessedKey, type EntryInputs } from '../../src/loader/entry-inputs.js';

// What Astro's digest does with an object (JSON, then a hash), with sha256 so the pinned values fix the JSON's bytes.
const generateDigest = (data: Record<string, unknown>): string => createHash('sha256').update(JSON.stringify(data)).digest('hex');

const spec = {
  slug: 'pour-over',
  keyword: 'pour over coffee',
  request: { keyword: 'pour over coffee', articleType: 'blog_post', integrationId: 'int-1', webhookUrl: 'https://hook.example' },
  data: { category: 'coffee' },
  draft: false,
  publishDate: new Date('2030-01-02T03:04:05.000Z'),
} as unknown as ArticleSpec;
const served = { output: `sha256:${'c'.repeat(64)}`, articleId: 'art_123', hash: 'sha256:request', current: true };
const parts = { url: '/articles/pour-over/', pipeline: 'fp-0123456789abcdef', review: 'not-required' as const, cover: 'cards-0123', entryData: [] as string[] };

function withVersion(inputs: EntryInputs): EntryInputs {
  // The pinned values were made with this version; the package's own changes with every release.
  return { ...inputs, processing: { ...inputs.processing, version: '9.8.7' } };
}

const plain = withVersion(entryInputs(spec, served, { ...parts, createdAt: null, edit: undefined }));
const edited = withVersion(entryInputs(spec, { ...served, emulator: true }, { ...parts, createdAt: '2024-05-06T07:08:09.000Z', edit: '<p>fixed by hand</p>' }));

describe('entry inputs', () => {
  // The keys changed once, on purpose, when records began to keep the quality findings (record format 1 → 2: every
  // record made before is processed once more); the digests changed when entries gained `cover` (every stored entry is
  // written once more, with its cover) and again with the slim entry (`entryData`, issue 42); the keys did not (a card and
  // the entry's shape are made around the processed record).
  it('should give the digest the code before them gave, and the key of record format 2 (computed from the same inputs)', () => {
    expect(entryDigest(plain, generateDigest)).toBe('bcdfed40b795f3a96d7f4b6d19bfdfa886b2d1140b034fac805eba0f45a12f1b');
    expect(entryProcessedKey(plain)).toBe('7b70c9c3f5de3b214102d65aae6f48642067416b9e28a4023363dc4abdb8b8e0');
    expect(entryDigest(edited, generateDigest)).toBe('965bb3f240cb524e40a298df4b8a8c057f9ca3f2176015e2e27478d5d6fa0580');
    expect(entryProcessedKey(edited)).toBe('53cafbefe5c1b61df5853163cdd05ce2feacae3a9807432c014dca5d3058df54');
  });

  it('should change the digest when any input changes, and the key when any processing input changes', () => {
    const digest = entryDigest(plain, generateDigest);
    const key = entryProcessedKey(plain);
    for (const group of ['processing', 'entry'] as const) {
      for (const name of Object.keys(plain[group])) {
        // The keyword reaches the digest through the request (`config.targetKeyword`), which a real keyword change changes too.
        if (name === 'keyword') continue;
        const changed = { ...plain, [group]: { ...plain[group], [name]: `changed ${name}` } } as EntryInputs;
        expect(entryDigest(changed, generateDigest), `${group}.${name} in the digest`).not.toBe(digest);
        if (group === 'processing') expect(entryProcessedKey(changed), `${group}.${name} in the key`).not.toBe(key);
        else expect(entryProcessedKey(changed), `${group}.${name} not in the key`).toBe(key);
      }
    }
    expect(entryProcessedKey({ ...plain, processing: { ...plain.processing, keyword: 'other' } })).not.toBe(key);
  });

  it('should leave the integration members of the request out of both', () => {
    const other = withVersion(entryInputs({ ...spec, request: { ...spec.request, integrationId: 'int-2' } } as ArticleSpec, served, { ...parts, createdAt: null, edit: undefined }));
    expect(entryDigest(other, generateDigest)).toBe(entryDigest(plain, generateDigest));
    expect(entryProcessedKey(other)).toBe(entryProcessedKey(plain));
  });
});
