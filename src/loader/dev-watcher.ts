// The dev server's watch on the manifest, the lock file and the cache: debounced, deaf to the loader's own writes.
import { sep } from 'node:path';

/** The part of Vite's FSWatcher the loader uses. */
export interface FileWatcher {
  add(paths: string | readonly string[]): unknown;
  on(event: 'change' | 'add' | 'unlink', listener: (path: string) => void): unknown;
  off?(event: 'change' | 'add' | 'unlink', listener: (path: string) => void): unknown;
}

export interface WatchedFiles {
  manifest: string | undefined;
  lockFile: string;
  cacheDir: string;
}

export interface WatchHandlers {
  /** Wait this long after the last change before acting (a manifest saved per keystroke creates one article, not ten). */
  debounceMs: number;
  /** True while the loader itself is writing the lock file and the cache. */
  busy(): boolean;
  /** True when the lock file holds what the loader last wrote or read. */
  lockUnchanged(): Promise<boolean>;
  /** Called once per burst of changes, after `debounceMs` of quiet. */
  onChange(reason: 'manifest' | 'lock'): void;
}

/** Starts watching; returns the function that stops it. */
export function watchArticleFiles(watcher: FileWatcher, files: WatchedFiles, handlers: WatchHandlers): () => void {
  let timer: NodeJS.Timeout | undefined;
  let reason: 'manifest' | 'lock' | undefined;
  const schedule = (next: 'manifest' | 'lock'): void => {
    // A manifest edit outranks a lock change in the log line; both run the same refresh.
    reason = reason === 'manifest' ? reason : next;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const why = reason ?? next;
      reason = undefined;
      timer = undefined;
      handlers.onChange(why);
    }, handlers.debounceMs);
  };
  const cachePrefix = files.cacheDir.endsWith(sep) ? files.cacheDir : files.cacheDir + sep;
  const listener = (path: string): void => {
    if (files.manifest !== undefined && path === files.manifest) {
      schedule('manifest');
      return;
    }
    if (path !== files.lockFile && !path.startsWith(cachePrefix)) return;
    if (handlers.busy()) return;
    void handlers.lockUnchanged().then(
      (unchanged) => {
        if (!unchanged) schedule('lock');
      },
      () => schedule('lock'),
    );
  };
  watcher.add([files.manifest, files.lockFile, files.cacheDir].filter((path): path is string => path !== undefined));
  watcher.on('change', listener);
  watcher.on('add', listener);
  watcher.on('unlink', listener);
  return () => {
    clearTimeout(timer);
    watcher.off?.('change', listener);
    watcher.off?.('add', listener);
    watcher.off?.('unlink', listener);
  };
}
