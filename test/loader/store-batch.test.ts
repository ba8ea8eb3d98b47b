// withBatchedStore: a pass's sets and deletes are kept, seen by the pass's own reads, and written into Astro's store
// once, when the pass ends (also when it throws), so Astro's debounced save of the store runs after load(), not in it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { LoaderContext } from 'astro/loaders';
// Astro's data store is not among its package exports; the content layer uses this class for every collection.
import { MutableDataStore } from '../../node_modules/astro/dist/content/mutable-data-store.js';
import { holdingStoreSave, withBatchedStore } from '../../src/loader/store-batch.js';

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

describe('holdingStoreSave', () => {
  it("keeps Astro's debounced save of its store out of a pass longer than 500 ms, and lets it run once after", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'aal-store-save-'));
    vi.useFakeTimers();
    try {
      // A store with a file, as Astro's content layer has: its debounced save calls writeToDisk.
      const store = await MutableDataStore.fromFile(join(dir, 'data-store.json'));
      const saves = vi.spyOn(store, 'writeToDisk').mockResolvedValue(undefined);
      const ctx = { meta: store.metaStore('articles'), store: store.scopedStore('articles') } as unknown as LoaderContext;
      const syncStarts = () => store.metaStore().set('content-config-digest', 'd');
      // Without the hold: Astro's own meta set as a sync starts, and a pass of three seconds has the save inside it.
      syncStarts();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(saves).toHaveBeenCalledTimes(1);
      saves.mockClear();
      syncStarts();
      await holdingStoreSave(ctx, async () => {
        await vi.advanceTimersByTimeAsync(3_000);
        expect(saves).not.toHaveBeenCalled();
      });
      await vi.advanceTimersByTimeAsync(500);
      expect(saves).toHaveBeenCalledTimes(1);
      // The key that held the save is not left in the store.
      expect(store.metaStore('articles').has('pass-holds-save')).toBe(false);
    } finally {
      vi.useRealTimers();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
