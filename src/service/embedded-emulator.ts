// The embedded emulator of offline mode: started in-process on first need, shared by every sync of the process, stopped when unused.
//
// Astro may evaluate the content config and astro.config in different module graphs, so two copies
// of this module can exist in one process: the slot lives on `globalThis` under a registered symbol.
import { startEmulator } from '../emulator/index.js';

/** How fast the embedded emulator writes: `'fast'` (seconds), `'realtime'`, `'instant'`, or explicit delays. */
export type EmulatorTiming = 'fast' | 'realtime' | 'instant' | { writingMs: number; queueDelayMs?: number };

export interface EmulatorLease {
  url: string;
  apiKey: string;
  /** Gives the emulator back; the last lease stops it (its state file keeps every article). */
  release(): Promise<void>;
}

interface EmulatorSlot {
  /** Resolves to the emulator once started. */
  started: Promise<{ url: string; apiKey: string; stop(): Promise<void> }>;
  /** Its address, once started. */
  url?: string;
  /** Syncs using it now (leases). */
  users: number;
}

interface EmbeddedState {
  slot: EmulatorSlot | undefined;
  /** Who keeps it running while no sync uses it (a dev server, for its whole life). */
  readonly keepers: Set<string>;
}

const KEY = Symbol.for('astro-article-loader.embedded-emulator');

function embedded(): EmbeddedState {
  const holder = globalThis as { [KEY]?: EmbeddedState };
  holder[KEY] ??= { slot: undefined, keepers: new Set() };
  return holder[KEY];
}

/** The running embedded emulator's address, if one runs in this process. */
export function embeddedEmulatorUrl(): string | null {
  return embedded().slot?.url ?? null;
}

/** Whether an embedded emulator was started (it may still be starting). */
export function embeddedEmulatorRunning(): boolean {
  return embedded().slot !== undefined;
}

/**
 * Starts the embedded emulator, or joins the one already running in this process. With a
 * `stateFile`, its articles, ledger and idempotency keys live there, so a build killed mid-way
 * resumes the same articles (the writer is deterministic) and the same request is never billed twice.
 */
export async function acquireEmbeddedEmulator(options: { stateFile?: string | undefined; timing: EmulatorTiming; onStart?: (url: string) => void }): Promise<EmulatorLease> {
  const state = embedded();
  const slot = state.slot ?? startSlot(state, options);
  slot.users += 1;
  let emulator;
  try {
    emulator = await slot.started;
  } catch (error) {
    slot.users -= 1;
    throw error;
  }
  let released = false;
  return {
    url: emulator.url,
    apiKey: emulator.apiKey,
    release: async () => {
      if (released) return;
      released = true;
      slot.users -= 1;
      await stopIfUnused(state, slot);
    },
  };
}

function startSlot(state: EmbeddedState, options: { stateFile?: string | undefined; timing: EmulatorTiming; onStart?: (url: string) => void }): EmulatorSlot {
  // Imported statically: Astro 5 loads the content config through a Vite module runner that is
  // closed by the time load() runs, so a dynamic import() from here would fail.
  const started = (async () => {
    const emulator = await startEmulator({ ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }), timing: options.timing, rateLimit: false });
    options.onStart?.(emulator.url);
    return emulator;
  })();
  const slot: EmulatorSlot = { started, users: 0 };
  state.slot = slot;
  started.then(
    (emulator) => {
      slot.url = emulator.url;
    },
    () => {
      if (state.slot === slot) state.slot = undefined;
    },
  );
  return slot;
}

/** Stops the emulator of `slot` when no sync uses it and no one keeps it (its state file keeps every article). */
async function stopIfUnused(state: EmbeddedState, slot: EmulatorSlot | undefined): Promise<void> {
  if (slot === undefined || slot.users > 0 || state.keepers.size > 0 || state.slot !== slot) return;
  state.slot = undefined;
  const emulator = await slot.started.catch(() => undefined);
  await emulator?.stop();
}

/**
 * Keeps the embedded emulator running between syncs, from its start (now or later) until the
 * returned function is called: a dev server edits the manifest many times and should find one
 * emulator, on one port, each time. `keeper` names who keeps it; keeping again under the same name
 * changes nothing (a restarted dev server). `stopEmbeddedEmulator()` ends every keeper.
 */
export function keepEmbeddedEmulator(keeper: string): () => Promise<void> {
  const state = embedded();
  state.keepers.add(keeper);
  return async () => {
    if (!state.keepers.delete(keeper)) return;
    await stopIfUnused(state, state.slot);
  };
}

/** Stops the embedded emulator whoever keeps or uses it (the dev server stopped). Its state file keeps every article. */
export async function stopEmbeddedEmulator(): Promise<void> {
  const state = embedded();
  state.keepers.clear();
  const slot = state.slot;
  state.slot = undefined;
  const emulator = await slot?.started.catch(() => undefined);
  await emulator?.stop();
}
