import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchArticleFiles } from '../../src/loader/dev-watcher.js';

const FILES = { manifest: '/site/articles.yaml', lockFile: '/site/articles.lock.json', cacheDir: '/site/articles.cache' };

function fakeWatcher() {
  const emitter = new EventEmitter();
  const added: string[] = [];
  return {
    emitter,
    added,
    watcher: { add: (paths: string | readonly string[]) => void added.push(...[paths].flat()), on: emitter.on.bind(emitter), off: emitter.off.bind(emitter) },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('watchArticleFiles', () => {
  it('should watch the manifest, the lock file and the cache directory', () => {
    const { watcher, added } = fakeWatcher();
    watchArticleFiles(watcher, FILES, { debounceMs: 1000, busy: () => false, lockIsOurs: async () => true, onChange: () => {} });
    expect(added).toEqual([FILES.manifest, FILES.lockFile, FILES.cacheDir]);
  });

  it('should act once, a debounce interval after the last of many manifest saves', () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    watchArticleFiles(watcher, FILES, { debounceMs: 1000, busy: () => false, lockIsOurs: async () => true, onChange });
    for (let save = 0; save < 5; save++) {
      emitter.emit('change', FILES.manifest);
      vi.advanceTimersByTime(400);
    }
    expect(onChange).not.toHaveBeenCalled();
    vi.advanceTimersByTime(600);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('manifest');
  });

  it('should ignore cache changes, and its own lock writes, while a pass runs', async () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    watchArticleFiles(watcher, FILES, { debounceMs: 10, busy: () => true, lockIsOurs: async () => true, onChange });
    emitter.emit('change', FILES.lockFile);
    emitter.emit('add', `${FILES.cacheDir}/outputs/abc.json`);
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('should sync again after another process changed the lock file during a pass (a CLI approve while articles are written)', async () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    watchArticleFiles(watcher, FILES, { debounceMs: 10, busy: () => true, lockIsOurs: async () => false, onChange });
    emitter.emit('add', `${FILES.cacheDir}/outputs/abc.json`);
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).not.toHaveBeenCalled();
    emitter.emit('change', FILES.lockFile);
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).toHaveBeenCalledWith('lock');
  });

  it('should ignore a lock change that leaves the file as this process wrote it', async () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    watchArticleFiles(watcher, FILES, { debounceMs: 10, busy: () => false, lockIsOurs: async () => true, onChange });
    emitter.emit('change', FILES.lockFile);
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('should sync after someone else changed the lock file (a git pull)', async () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    watchArticleFiles(watcher, FILES, { debounceMs: 10, busy: () => false, lockIsOurs: async () => false, onChange });
    emitter.emit('change', FILES.lockFile);
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).toHaveBeenCalledWith('lock');
  });

  it('should ignore files it does not watch', async () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    watchArticleFiles(watcher, FILES, { debounceMs: 10, busy: () => false, lockIsOurs: async () => false, onChange });
    emitter.emit('change', '/site/src/pages/index.astro');
    emitter.emit('change', '/site/articles.cache-old/x.json');
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).not.toHaveBeenCalled();
  });

  it('should stop listening when the returned function is called', async () => {
    const { watcher, emitter } = fakeWatcher();
    const onChange = vi.fn();
    const stop = watchArticleFiles(watcher, FILES, { debounceMs: 10, busy: () => false, lockIsOurs: async () => false, onChange });
    stop();
    emitter.emit('change', FILES.manifest);
    await vi.advanceTimersByTimeAsync(100);
    expect(onChange).not.toHaveBeenCalled();
  });
});
