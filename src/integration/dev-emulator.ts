// Offline mode under `astro dev`: one embedded emulator for the dev server's whole life, stopped with the server.
import { acquireEmbeddedEmulator, stopEmbeddedEmulator, type EmulatorLease } from '../loader/embedded-emulator.js';
import { loaderRuntime, type EmulatorSlot } from '../loader/runtime.js';

/**
 * The loader starts the embedded emulator on a sync's first request and stops it when the last
 * sync lets go. In a dev server that means a new emulator, on a new port, after every manifest
 * edit. Holding a lease of our own from the moment one runs keeps a single emulator until the
 * dev server stops, and `stop()` ends it whatever leases the loader still holds.
 */
export class DevEmulatorHold {
  #slot: EmulatorSlot | undefined;
  #lease: Promise<EmulatorLease | undefined> | undefined;
  #url: string | null = null;
  #stopped = false;
  readonly #onUrl: (url: string | null) => void;

  /** `onUrl` hears the address of the emulator held (null once stopped). */
  constructor(onUrl: (url: string | null) => void = () => {}) {
    this.#onUrl = onUrl;
  }

  /** The address of the emulator held, or null. */
  get url(): string | null {
    return this.#url;
  }

  /** Joins the emulator the loader started, if it runs and is not held yet. Cheap: call it on every queue change. */
  check(): void {
    if (this.#stopped) return;
    const slot = loaderRuntime().emulator;
    if (slot === undefined || slot === this.#slot) return;
    const earlier = this.#lease;
    this.#slot = slot;
    // acquireEmbeddedEmulator reads the slot before its first await, so this joins the running one;
    // its start options only matter when nothing runs, which was just ruled out.
    const lease = acquireEmbeddedEmulator({ stateFile: slot.stateFile, timing: 'instant' }).then(
      (held) => held,
      () => undefined,
    );
    this.#lease = lease;
    void earlier?.then((held) => held?.release());
    void lease.then((held) => {
      if (held === undefined || this.#lease !== lease || this.#stopped) return;
      this.#url = held.url;
      this.#onUrl(held.url);
    });
  }

  /** Gives the lease back and stops the embedded emulator (its state file keeps every article). True when one was running. */
  async stop(): Promise<boolean> {
    this.#stopped = true;
    const lease = await this.#lease;
    this.#lease = undefined;
    this.#slot = undefined;
    const running = loaderRuntime().emulator !== undefined;
    await lease?.release();
    await stopEmbeddedEmulator();
    if (this.#url !== null) {
      this.#url = null;
      this.#onUrl(null);
    }
    return running || lease !== undefined;
  }
}
