// Sleeps the article workers and webhook retries wait on, which tests can cut short or cancel.

/** Timers the emulator owns: `wakeAll()` ends every current sleep early; `cancelAll()` for stop(). */
export class Clock {
  readonly #sleepers = new Set<{ timer: NodeJS.Timeout | NodeJS.Immediate; resolve: (woken: boolean) => void; immediate: boolean }>();
  #stopped = false;

  /** Resolves after `ms` (true when ended early by wakeAll/cancelAll). Zero yields to the event loop only. */
  sleep(ms: number): Promise<boolean> {
    if (this.#stopped) return Promise.resolve(true);
    return new Promise((resolve) => {
      const immediate = !(ms > 0);
      const sleeper = {
        immediate,
        resolve: (woken: boolean) => {
          this.#sleepers.delete(sleeper);
          resolve(woken);
        },
        timer: immediate ? setImmediate(() => sleeper.resolve(false)) : setTimeout(() => sleeper.resolve(false), Math.min(ms, 2 ** 31 - 1)),
      };
      // The HTTP server keeps the process alive; pending sleeps alone must not.
      if (!immediate) (sleeper.timer as NodeJS.Timeout).unref();
      this.#sleepers.add(sleeper);
    });
  }

  /** End every pending sleep now (used when timing changes at runtime). */
  wakeAll(): void {
    for (const sleeper of [...this.#sleepers]) {
      if (sleeper.immediate) clearImmediate(sleeper.timer as NodeJS.Immediate);
      else clearTimeout(sleeper.timer as NodeJS.Timeout);
      sleeper.resolve(true);
    }
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** End every pending sleep and make future ones return at once. */
  cancelAll(): void {
    this.#stopped = true;
    this.wakeAll();
  }

  /** Undo cancelAll (reset()). */
  restart(): void {
    this.#stopped = false;
  }
}
