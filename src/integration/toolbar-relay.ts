// The dev server's side of the Articles toolbar app: sends the loaders' queues to the browser as they change.
import { isAbsolute } from 'node:path';
import { loaderRuntime, subscribeQueues, type QueueSnapshot } from '../loader/runtime.js';
import { shortPath } from '../loader/short-path.js';
import { REFRESH_EVENT, STATE_EVENT, TOOLBAR_APP_ID, type PanelCollection, type PanelState } from './panel-state.js';

/** The part of Astro's `toolbar` (from `astro:server:setup`) the relay uses. */
export interface ToolbarChannel {
  send<T>(event: string, payload: T): void;
  on<T>(event: string, callback: (data: T) => void): void;
  onAppInitialized(appId: string, callback: (data: Record<string, never>) => void): void;
}

export interface RelayOptions {
  /** The project root: paths inside it are shown relative to it. */
  root: string;
  /** The embedded emulator's address while it runs. */
  emulatorUrl(): string | null;
  /** The token the panel sends with its actions (see panel-endpoint.ts); none: the panel offers no actions. */
  token?: string;
  /** Called on every queue change, before the state is sent. */
  onQueueChange?(): void;
  /**
   * Changes within this window go out as one message: a poll round that moves 40 articles sends
   * one state, not 40. Default 100 ms.
   */
  coalesceMs?: number;
}

function panelCollection(snapshot: QueueSnapshot, root: string): PanelCollection {
  return {
    collection: snapshot.collection,
    mode: snapshot.mode,
    frozen: snapshot.frozen,
    budget: snapshot.budget,
    // An inline manifest is named `inline`, not a path.
    manifest: isAbsolute(snapshot.manifest) ? shortPath(snapshot.manifest, root) : snapshot.manifest,
    lockFile: shortPath(snapshot.lockFile, root),
    cacheDir: shortPath(snapshot.cacheDir, root),
    running: snapshot.running,
    articles: snapshot.articles,
    totals: snapshot.totals,
    changed: snapshot.changed,
    problem: snapshot.problem,
    updatedAt: snapshot.updatedAt,
  };
}

/** The state the panel shows: every collection the loaders published, by name. */
export function panelState(root: string, emulatorUrl: string | null, token?: string): PanelState {
  const collections = [...loaderRuntime().queues.values()]
    .sort((a, b) => a.collection.localeCompare(b.collection))
    .map((snapshot) => panelCollection(snapshot, root));
  return { collections, emulator: emulatorUrl === null ? null : { url: emulatorUrl }, actions: token === undefined ? null : { token } };
}

export interface QueueRelay {
  /** Sends the state soon (coalesced). */
  push(): void;
  /** Sends the state now. */
  flush(): void;
  /** Stops listening to the loaders. */
  close(): void;
}

/** Listens to the loaders' queues and keeps every open toolbar up to date. */
export function relayQueues(toolbar: ToolbarChannel, options: RelayOptions): QueueRelay {
  const coalesceMs = options.coalesceMs ?? 100;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (closed) return;
    toolbar.send<PanelState>(STATE_EVENT, panelState(options.root, options.emulatorUrl(), options.token));
  };
  const push = (): void => {
    if (closed || timer !== undefined) return;
    timer = setTimeout(flush, coalesceMs);
    // A pending message must not keep a stopping dev server alive.
    timer.unref();
  };
  const unsubscribe = subscribeQueues(() => {
    options.onQueueChange?.();
    push();
  });
  toolbar.onAppInitialized(TOOLBAR_APP_ID, flush);
  toolbar.on(REFRESH_EVENT, flush);
  return {
    push,
    flush,
    close: () => {
      closed = true;
      clearTimeout(timer);
      unsubscribe();
    },
  };
}
