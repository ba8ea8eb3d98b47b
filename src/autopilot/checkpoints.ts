// The run's checkpoints, one at a time: concurrent asks coalesce into the next checkpoint, and each ask resolves only once a checkpoint that started after it is pushed.
import type { RunBranch } from './run-branch.js';

/**
 * Serializes and coalesces `branch.checkpoint`: the create phase asks from several workers at once, after each lock
 * file write, and each must not send its create before a checkpoint that saw its intent is pushed. A checkpoint in
 * flight may have read the files before the ask, so an ask made meanwhile waits for the next one, which serves every
 * ask made while it waited.
 */
export class Checkpoints {
  readonly #branch: RunBranch;
  readonly #onCheckpoint: (message: string) => void;
  #running: Promise<void> | undefined;
  #next: { promise: Promise<void>; message: string } | undefined;
  #count = 0;

  constructor(branch: RunBranch, onCheckpoint: (message: string) => void) {
    this.#branch = branch;
    this.#onCheckpoint = onCheckpoint;
  }

  /** Checkpoints made that committed something. */
  get count(): number {
    return this.#count;
  }

  /** Resolves once a checkpoint that started after this call has been pushed (it rejects with its error). */
  ask(message: string): Promise<void> {
    // The queued one first: between the end of one checkpoint and the start of the queued one, nothing else may start.
    if (this.#next !== undefined) return this.#next.promise;
    if (this.#running === undefined) return this.#start(message);
    const after = this.#running.catch(() => undefined);
    const promise = after.then(() => this.#start(message));
    this.#next = { promise, message };
    return promise;
  }

  #start(message: string): Promise<void> {
    this.#next = undefined;
    this.#onCheckpoint(message);
    const running = this.#branch.checkpoint(message).then((committed) => {
      if (committed) this.#count += 1;
    });
    this.#running = running;
    void running.then(
      () => this.#settle(running),
      () => this.#settle(running),
    );
    return running;
  }

  #settle(running: Promise<void>): void {
    if (this.#running === running) this.#running = undefined;
  }
}
