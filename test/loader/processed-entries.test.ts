// The processed-article cache: a hit, a miss for each part of the key, a damaged record, a record whose downloaded images are gone.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRecord, processedKey, readProcessed, writeProcessed, type ProcessedKeyParts, type ProcessedRecord } from '../../src/loader/processed-entries.js';
import { processArticle } from '../../src/pipeline/index.js';
import { ProcessedStore } from '../../src/sync/processed-store.js';

let dir: string;
let store: ProcessedStore;
let warned: string[];

const parts: ProcessedKeyParts = {
  version: '1.2.3',
  output: `sha256:${'a'.repeat(64)}`,
  edit: null,
  pipeline: 'fingerprint-1',
  article: { keyword: 'pour over coffee', url: '/articles/pour-over/', config: { articleType: 'blog_post' } },
};

async function record(html = '<h1>Pour over</h1><p>Bloom the grounds first.</p>'): Promise<ProcessedRecord> {
  return { article: await processArticle(html, { keyword: 'pour over coffee' }), polished: false, updatedAt: 1_700_000_000_000, edit: null, quality: null };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'aal-processed-'));
  warned = [];
  store = new ProcessedStore(dir, { onDamaged: (file) => warned.push(file) });
});

afterEach(() => rm(dir, { recursive: true, force: true }));

describe('processed-article cache', () => {
  it('should give back what was stored under the same key (a hit), compressed on disk', async () => {
    const stored = await record();
    await writeProcessed(store, 'pour-over', parts.output, processedKey(parts), stored);
    expect(await readProcessed(store, 'pour-over', processedKey({ ...parts }), undefined)).toEqual(stored);
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(store.file('pour-over'));
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
  });

  it('should miss when any part of the key changes', async () => {
    await writeProcessed(store, 'pour-over', parts.output, processedKey(parts), await record());
    const changed: ProcessedKeyParts[] = [
      { ...parts, version: '1.2.4' },
      { ...parts, output: `sha256:${'b'.repeat(64)}` },
      { ...parts, edit: '<p>fixed by hand</p>' },
      { ...parts, pipeline: 'fingerprint-2' },
      { ...parts, article: { ...parts.article, url: '/blog/pour-over/' } },
      { ...parts, article: { ...parts.article, keyword: 'pour-over coffee' } },
    ];
    const keys = new Set(changed.map(processedKey));
    expect(keys.size).toBe(changed.length);
    expect(keys.has(processedKey(parts))).toBe(false);
    for (const other of changed) expect(await readProcessed(store, 'pour-over', processedKey(other), undefined)).toBeUndefined();
    // A miss leaves the record alone; only a new write replaces it.
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toBeDefined();
  });

  it('should miss for another slug, and for a slug with no record', async () => {
    await writeProcessed(store, 'pour-over', parts.output, processedKey(parts), await record());
    expect(await readProcessed(store, 'cold-brew', processedKey(parts), undefined)).toBeUndefined();
  });

  it('should treat a damaged file as a miss and say so', async () => {
    await writeProcessed(store, 'pour-over', parts.output, processedKey(parts), await record());
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(store.file('pour-over'));
    bytes[bytes.length - 6] = bytes[bytes.length - 6]! ^ 0xff; // inside the gzip CRC
    await writeFile(store.file('pour-over'), bytes);
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toBeUndefined();
    expect(warned).toEqual([store.file('pour-over')]);
    await writeFile(store.file('pour-over'), 'not gzip at all');
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toBeUndefined();
    expect(warned).toHaveLength(2);
  });

  it('should miss when a record has the right key but not the shape of a processed article', async () => {
    await store.set('pour-over', { output: parts.output, key: processedKey(parts), value: { article: { html: 1 } } });
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toBeUndefined();
    // Down to its lists: a list that is not one, or quality without its findings, is a miss too.
    const sound = await record();
    const misshapen = [
      { ...sound, article: { ...sound.article, headings: 'Pour over' } },
      { ...sound, article: { ...sound.article, links: undefined } },
      { ...sound, quality: { signature: null } },
      { ...sound, quality: { findings: {}, signature: null } },
      // The images are checked item by item: the downloads check reads each.
      { ...sound, article: { ...sound.article, images: [null] } },
    ];
    for (const value of misshapen) {
      await store.set('pour-over', { output: parts.output, key: processedKey(parts), value });
      expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toBeUndefined();
    }
    await store.set('pour-over', { output: parts.output, key: processedKey(parts), value: { ...sound, quality: { findings: [], signature: null } } });
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toEqual({ ...sound, quality: { findings: [], signature: null } });
  });

  it('should take or miss a record under its key as the record schema does, down to its lists, and keep only its own members', async () => {
    const sound = await record();
    sound.article.images = [{ src: '/a.png', alt: 'A', width: 10 }];
    sound.article.warnings = ['a warning'];
    const withQuality = { ...sound, quality: { findings: [{ slug: 'pour-over', code: 'faq_missing', severity: 'warning', message: 'no FAQ' }], signature: 'abc', checkedWith: { digest: 'd', origins: ['https://a.example'] } } };
    // Each checked member, with values of the wrong kind (the lists' items are the schema's to check only in images and the short lists).
    const wrong: Record<string, unknown[]> = {
      article: [null, [], 'x'],
      'article.html': [1, null, undefined],
      'article.title': [undefined, 2],
      'article.excerpt': [null],
      'article.wordCount': ['1', Number.NaN, Number.POSITIVE_INFINITY, null],
      'article.readingTime': [undefined],
      'article.headings': ['x', {}, null, undefined],
      'article.links': [undefined, 'x'],
      'article.faq': [{}],
      'article.images': [[null], [{ src: 1, alt: 'a' }], [{ src: '/a.png' }], 'x'],
      'article.imageImports': [[1], 'x', undefined],
      'article.warnings': [[null], {}],
      polished: ['true', undefined, 0],
      updatedAt: ['1', Number.NaN, undefined],
      edit: [1, undefined],
      quality: [undefined, 'x', [], { signature: null }, { findings: {}, signature: null }, { findings: [], signature: 1 }, { findings: [] }],
      'quality.checkedWith': [{ digest: 1, origins: [] }, { digest: 'd' }, null],
    };
    const cases: { label: string; value: unknown }[] = [
      { label: 'sound', value: sound },
      { label: 'with quality', value: withQuality },
      { label: 'an edit', value: { ...sound, edit: 'e'.repeat(64) } },
      { label: 'not an object', value: [] },
      ...Object.entries(wrong).flatMap(([path, values]) =>
        values.map((bad) => {
          const value = structuredClone(withQuality) as Record<string, unknown>;
          const names = path.split('.');
          const holder = names.slice(0, -1).reduce((at, name) => at[name] as Record<string, unknown>, value);
          holder[names.at(-1)!] = bad;
          return { label: `${path} = ${String(bad)}`, value };
        }),
      ),
    ];
    for (const { label, value } of cases) {
      await store.set('pour-over', { output: parts.output, key: processedKey(parts), value });
      const read = await readProcessed(store, 'pour-over', processedKey(parts), undefined);
      expect({ label, taken: read !== undefined }).toEqual({ label, taken: parseRecord(value) !== undefined });
      if (read !== undefined) expect(read, label).toEqual(parseRecord(value));
    }
    // Members of no record are left behind, as the schema's copy left them.
    const extra = { ...withQuality, extra: 1, article: { ...withQuality.article, extra: 2 }, quality: { ...withQuality.quality, shingles: [1, 2] } };
    await store.set('pour-over', { output: parts.output, key: processedKey(parts), value: extra });
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toEqual(withQuality);
  });

  it('should miss when an image the article downloaded is no longer on disk', async () => {
    const images = join(dir, 'public/_articles');
    await mkdir(images, { recursive: true });
    const stored = await record();
    stored.article.images = [{ src: '/_articles/abc.png', alt: 'Kettle', originalSrc: 'https://cdn.example/kettle.png' }];
    await writeProcessed(store, 'pour-over', parts.output, processedKey(parts), stored);
    const downloads = { dir: images, publicPath: '/_articles/' };
    expect(await readProcessed(store, 'pour-over', processedKey(parts), downloads)).toBeUndefined();
    await writeFile(join(images, 'abc.png'), 'png');
    expect(await readProcessed(store, 'pour-over', processedKey(parts), downloads)).toEqual(stored);
    // Downloads turned off since: the record points at files nothing serves any more.
    expect(await readProcessed(store, 'pour-over', processedKey(parts), undefined)).toBeUndefined();
  });
});
