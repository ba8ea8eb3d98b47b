// The words each article was billed, recorded in the lock file when it finishes or is fetched.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLockFile, writeLockFile } from '../../src/sync/index.js';
import { startHarness, type Harness } from './sync-harness.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

function ledgerOf(articleId: string | undefined) {
  const creation = h.emulator.ledger.creations.find((c) => c.articleId === articleId);
  return creation === undefined ? undefined : { words: creation.words, images: creation.images, imageWords: creation.imageWords };
}

describe('billing records in the lock file', () => {
  it('should record in each finished entry the words and generated images the service billed', async () => {
    const specs = [
      ...h.specs(['chemex brewing'], { multimediaOption: 'images', imageModel: 'model-image-2-medium', maxImages: 2 }),
      ...h.specs(['10 best espresso machines'], { articleType: 'listicle' }),
    ];
    await h.sync(specs);
    const lock = await readLockFile(h.lockFile);
    for (const spec of specs) {
      const entry = lock.articles[spec.slug]!;
      expect({ words: entry.words, images: entry.images, imageWords: entry.imageWords }).toEqual(ledgerOf(entry.articleId));
    }
    expect(lock.articles['chemex-brewing']).toMatchObject({ images: 2, imageWords: 400 });
  });

  it('should keep the earlier article billing record in previous while a changed request is written', async () => {
    await h.sync(h.specs(['aeropress recipes']));
    const before = (await readLockFile(h.lockFile)).articles['aeropress-recipes']!;
    await h.sync(h.specs(['aeropress recipes'], { articleLength: 'long' }), { wait: false });
    const entry = (await readLockFile(h.lockFile)).articles['aeropress-recipes']!;
    expect(entry.status).toBe('pending');
    expect(entry.words).toBeUndefined();
    expect(entry.previous).toMatchObject({ articleId: before.articleId, words: before.words, images: 0, imageWords: 0 });
  });

  it('should record the bill of a finished article fetched into a clone whose lock file has none', async () => {
    await h.sync(h.specs(['v60 technique']));
    const lock = await readLockFile(h.lockFile);
    const { words: _w, images: _i, imageWords: _iw, ...unrecorded } = lock.articles['v60-technique']!;
    lock.articles['v60-technique'] = unrecorded;
    await writeLockFile(h.lockFile, lock);
    await rm(join(h.dir, 'articles.cache'), { recursive: true });
    const result = await h.sync(h.specs(['v60 technique']));
    expect(result.articles[0]!.outcome).toBe('fetched');
    const entry = (await readLockFile(h.lockFile)).articles['v60-technique']!;
    expect({ words: entry.words, images: entry.images, imageWords: entry.imageWords }).toEqual(ledgerOf(entry.articleId));
  });

  it('should not write the lock file on a warm build of entries recorded before billing records existed', async () => {
    await h.sync(h.specs(['cupping notes']));
    const lock = await readLockFile(h.lockFile);
    const { words: _w, images: _i, imageWords: _iw, ...unrecorded } = lock.articles['cupping-notes']!;
    lock.articles['cupping-notes'] = unrecorded;
    await writeLockFile(h.lockFile, lock);
    const result = await h.sync(h.specs(['cupping notes']));
    expect(result.articles[0]!.outcome).toBe('reused');
    expect((await readLockFile(h.lockFile)).articles['cupping-notes']!.words).toBeUndefined();
  });
});
