// withBatchedStore: a pass's sets and deletes are kept, seen by the pass's own reads, and written into Astro's store
// once, when the pass ends (also when it throws), so Astro's debounced save of the store runs after load(), not in it.
import { describe, expect, it } from 'vitest';
import type { LoaderContext } from 'astro/loaders';
// Astro's data store is not among its package exports; the content layer uses this class for every collection.
import { MutableDataStore } from '../../node_modules/astro/dist/content/mutable-data-store.js';
import { withBatchedStore } from '../../src/loader/store-batch.js';

/** A context whose store is Astro's, each set that reached it counted by id. */
function context(): { context: LoaderContext; real: LoaderContext['store']; sets: string[] } {
  const store = new MutableDataStore();
  const scoped = store.scopedStore('articles');
  const sets: string[] = [];
  const real = { ...scoped, set: (entry: Parameters<typeof scoped.set>[0]) => (sets.push(entry.id), scoped.set(entry)) } as LoaderContext['store'];
  return { context: { store: real } as unknown as LoaderContext, real, sets };
}

const entry = (id: string, digest: string, status = 'finished') => ({ id, digest, data: { status }, rendered: { html: `<p>${id}</p>` } });

describe('withBatchedStore', () => {
  it('keeps the sets of a pass until it ends, shows them to its reads, and writes each entry once', async () => {
    const { context: ctx, real, sets } = context();
    real.set(entry('kept', 'd0'));
    real.set(entry('gone', 'd0'));
    sets.length = 0;
    await withBatchedStore(ctx, async () => {
      expect(ctx.store.set(entry('a', 'd1'))).toBe(true);
      expect(ctx.store.set(entry('b', 'd1'))).toBe(true);
      // The near-duplicate pass sets an entry again with its mark: still one write.
      expect(ctx.store.set(entry('a', 'd1+mark'))).toBe(true);
      // As Astro's store: an entry held with the same digest is not set again.
      expect(ctx.store.set(entry('kept', 'd0'))).toBe(false);
      ctx.store.delete('gone');
      expect(real.has('a')).toBe(false);
      expect(sets).toEqual([]);
      expect(ctx.store.get('a')?.digest).toBe('d1+mark');
      expect(ctx.store.has('gone')).toBe(false);
      expect(ctx.store.keys().sort()).toEqual(['a', 'b', 'kept']);
      expect(ctx.store.values().map((value) => value.id).sort()).toEqual(['a', 'b', 'kept']);
    });
    expect(ctx.store).toBe(real);
    expect(sets.sort()).toEqual(['a', 'b']);
    expect(real.get('a')?.digest).toBe('d1+mark');
    expect(real.has('gone')).toBe(false);
    expect(real.keys().sort()).toEqual(['a', 'b', 'kept']);
  });

  it('writes what a pass placed when the pass throws, and puts the real store back', async () => {
    const { context: ctx, real } = context();
    await expect(
      withBatchedStore(ctx, async () => {
        ctx.store.set(entry('a', 'd1'));
        throw new Error('the pass failed');
      }),
    ).rejects.toThrow('the pass failed');
    expect(ctx.store).toBe(real);
    expect(real.get('a')?.digest).toBe('d1');
  });

  it('sets again an entry deleted earlier in the pass, and clears what the real store holds', async () => {
    const { context: ctx, real } = context();
    real.set(entry('x', 'd0'));
    real.set(entry('y', 'd0'));
    await withBatchedStore(ctx, async () => {
      ctx.store.delete('x');
      expect(ctx.store.set(entry('x', 'd0'))).toBe(true);
    });
    expect(real.get('x')?.digest).toBe('d0');
    await withBatchedStore(ctx, async () => {
      ctx.store.clear();
      expect(ctx.store.keys()).toEqual([]);
    });
    expect(real.keys()).toEqual([]);
  });
});
