// The dev server's watch on the manifest, the lock file, the cache and the hand edits: debounced, deaf to this process's own lock writes.
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
  /** Hand edits (`articles.edits/`): a change is the user's, so it always refreshes. */
  editsDir?: string;
}

export interface WatchHandlers {
  /** Wait this long after the last change before acting (a manifest saved per keystroke creates one article, not ten). */
  debounceMs: number;
  /** True while the loader itself is writing the lock file and the cache. */
  busy(): boolean;
  /** True when the lock file holds a text this process wrote, or the one the last pass read: not another process's change. */
  lockIsOurs(): Promise<boolean>;
  /** Called once per burst of changes, after `debounceMs` of quiet. */
  onChange(reason: WatchReason): void;
}

/** What changed, most telling first: the manifest, a hand edit, or the lock file and cache. */
export type WatchReason = 'manifest' | 'edit' | 'lock';

const RANK: Record<WatchReason, number> = { manifest: 2, edit: 1, lock: 0 };


/** Starts watching; returns the function that stops it. */
export function watchArticleFiles(watcher: FileWatcher, files: WatchedFiles, handlers: WatchHandlers): () => void {
  let timer: NodeJS.Timeout | undefined;
  let reason: WatchReason | undefined;
  const schedule = (next: WatchReason): void => {
    // A manifest edit outranks a hand edit, which outranks a lock change, in the log line; all run the same refresh.
    reason = reason !== undefined && RANK[reason] >= RANK[next] ? reason : next;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const why = reason ?? next;
      reason = undefined;
      timer = undefined;
      handlers.onChange(why);
    }, handlers.debounceMs);
  };
  const cachePrefix = files.cacheDir.endsWith(sep) ? files.cacheDir : files.cacheDir + sep;
  const editsPrefix = files.editsDir === undefined ? undefined : files.editsDir.endsWith(sep) ? files.editsDir : files.editsDir + sep;
  const listener = (path: string): void => {
    if (files.manifest !== undefined && path === files.manifest) {
      schedule('manifest');
      return;
    }
    if (editsPrefix !== undefined && path.startsWith(editsPrefix)) {
      schedule('edit');
      return;
    }
    if (path !== files.lockFile && !path.startsWith(cachePrefix)) return;
    // The cache changes with every pass; what another process changed shows in the lock file, even during a pass.
    if (path !== files.lockFile && handlers.busy()) return;
    void handlers.lockIsOurs().then(
      (ours) => {
        if (!ours) schedule('lock');
      },
      () => schedule('lock'),
    );
  };
  watcher.add([files.manifest, files.lockFile, files.cacheDir, files.editsDir].filter((path): path is string => path !== undefined));
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
