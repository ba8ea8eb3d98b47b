// The embedded emulator of offline mode: started in-process on first need, shared by every sync of the process, stopped when unused.
//
// Astro may evaluate the content config and astro.config in different module graphs, so two copies
// of this module can exist in one process: the slot lives on `globalThis` under a registered symbol.
import { urlForMessage } from '../lang/url-for-message.js';
import type { FlawOptions } from '../emulator/flaw-options.js';
import { withEnvKey, writerFromEnv, type ModelWriterOptions } from '../emulator/model-writer/writer-settings.js';

export { WRITER_KEY_ENV } from '../emulator/model-writer/writer-settings.js';
export { flawOptionsSchema, type FlawOptions } from '../emulator/flaw-options.js';

/** How fast the embedded emulator writes: `'fast'` (seconds), `'realtime'`, `'instant'`, or explicit delays. */
export type EmulatorTiming = 'fast' | 'realtime' | 'instant' | { writingMs: number; queueDelayMs?: number };

/** The language model the embedded emulator writes with; its key comes from `ARTICLES_WRITER_KEY` only. */
export type EmulatorWriter = Omit<ModelWriterOptions, 'apiKey'>;

export interface EmbeddedEmulatorOptions {
  stateFile?: string | undefined;
  timing: EmulatorTiming;
  /** Default: `ARTICLES_WRITER_URL` / `ARTICLES_WRITER_MODEL` when set, else the deterministic placeholder writer. */
  writer?: EmulatorWriter | undefined;
  /** Articles written with planted flaws, for trying the quality checks (a fixture site's `emulator.flaws`). Default: none. */
  flaws?: FlawOptions | undefined;
  onStart?: (url: string) => void;
}

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
 * resumes the same articles (the placeholder writer is deterministic; a model writer asks the model
 * only for the parts of an unfinished one it had no answer to) and the same request is never billed twice.
 */
export async function acquireEmbeddedEmulator(options: EmbeddedEmulatorOptions): Promise<EmulatorLease> {
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

/** The writer options, the environment's writer, or none; the key only ever from the environment. */
function writerOf(writer: EmulatorWriter | undefined, env: NodeJS.ProcessEnv): ModelWriterOptions | undefined {
  return writer === undefined ? writerFromEnv(env) : withEnvKey({ ...writer }, env);
}

/** What writes offline, for the log: placeholder text, or the model at its address (never the key). */
export function embeddedWriterLabel(settings: { writer?: EmulatorWriter | undefined }, env: NodeJS.ProcessEnv = process.env): string {
  const writer = writerOf(settings.writer, env);
  if (writer === undefined) return 'placeholder text';
  return `written by ${writer.model === undefined ? 'the model' : `the model ${writer.model}`} at ${urlForMessage(writer.url)}`;
}

function startSlot(state: EmbeddedState, options: EmbeddedEmulatorOptions): EmulatorSlot {
  const started = (async () => {
    const writer = writerOf(options.writer, process.env);
    // The emulator's code (its server, writers, remark and micromark) is imported only here: a build
    // whose articles are all cached, or that talks to the real service, never loads it.
    const { startEmulator } = await import('../emulator/index.js');
    const emulator = await startEmulator({
      ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
      ...(writer === undefined ? {} : { writer }),
      ...(options.flaws === undefined ? {} : { flaws: options.flaws }),
      timing: options.timing,
      rateLimit: false,
    });
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
