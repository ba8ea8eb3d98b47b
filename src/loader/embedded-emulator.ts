// Offline mode's service: the emulator started in-process on first need, shared, persisted to a state file, stopped when unused.
import { startEmulator } from '../emulator/index.js';
import type { EmulatorTiming } from './options.js';
import { loaderRuntime, type EmulatorSlot, type LoaderRuntime } from './runtime.js';

export interface EmulatorLease {
  url: string;
  apiKey: string;
  /** Gives the emulator back; the last lease stops it (its state file keeps every article). */
  release(): Promise<void>;
}

/**
 * Starts the embedded emulator, or joins the one already running in this process. Its articles,
 * ledger and idempotency keys live in `stateFile`, so a build killed mid-way resumes the same
 * articles (the writer is deterministic) and the same request is never billed twice.
 */
export async function acquireEmbeddedEmulator(options: { stateFile: string; timing: EmulatorTiming; onStart?: (url: string) => void }): Promise<EmulatorLease> {
  const runtime = loaderRuntime();
  let slot = runtime.emulator;
  if (slot === undefined) {
    // Imported statically: Astro 5 loads the content config through a Vite module runner that is
    // closed by the time load() runs, so a dynamic import() from here would fail.
    const started = (async () => {
      const emulator = await startEmulator({ stateFile: options.stateFile, timing: options.timing, rateLimit: false });
      options.onStart?.(emulator.url);
      return emulator;
    })();
    const created: EmulatorSlot = { started, stateFile: options.stateFile, users: 0 };
    slot = created;
    runtime.emulator = created;
    started.then(
      (emulator) => {
        created.url = emulator.url;
      },
      () => {
        if (runtime.emulator === created) runtime.emulator = undefined;
      },
    );
  }
  slot.users += 1;
  let emulator;
  try {
    emulator = await slot.started;
  } catch (error) {
    slot.users -= 1;
    throw error;
  }
  let released = false;
  const held = slot;
  return {
    url: emulator.url,
    apiKey: emulator.apiKey,
    release: async () => {
      if (released) return;
      released = true;
      held.users -= 1;
      await stopIfUnused(runtime, held);
    },
  };
}

/** Stops the emulator of `slot` when no sync uses it and no one keeps it (its state file keeps every article). */
async function stopIfUnused(runtime: LoaderRuntime, slot: EmulatorSlot | undefined): Promise<void> {
  if (slot === undefined || slot.users > 0 || runtime.emulatorKeepers.size > 0 || runtime.emulator !== slot) return;
  runtime.emulator = undefined;
  const emulator = await slot.started.catch(() => undefined);
  await emulator?.stop();
}

/**
 * Keeps the embedded emulator running between syncs, from its start (now or later) until the
 * returned function is called: a dev server edits the manifest many times and should find one
 * emulator, on one port, each time. `keeper` names who keeps it; keeping again under the same name
 * changes nothing (a restarted dev server). `shutdownRuntime()` ends every keeper.
 */
export function keepEmbeddedEmulator(keeper: string): () => Promise<void> {
  const runtime = loaderRuntime();
  runtime.emulatorKeepers.add(keeper);
  return async () => {
    if (!runtime.emulatorKeepers.delete(keeper)) return;
    await stopIfUnused(runtime, runtime.emulator);
  };
}
