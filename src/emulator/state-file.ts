// Optional persistence of the emulator's state to one JSON file: atomic writes, debounced, reloaded on start.
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EmulatorError } from './errors.js';

export const STATE_FILE_VERSION = 1;
/** Progress changes are coalesced into at most one write per this many milliseconds. */
export const STATE_SAVE_DEBOUNCE_MS = 250;

/** Reads and writes one state file; `T` is the snapshot shape the emulator defines. */
export class StateFile<T extends object> {
  readonly path: string;
  readonly #snapshot: () => T;
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #dirty = false;

  constructor(path: string, snapshot: () => T) {
    this.path = path;
    this.#snapshot = snapshot;
  }

  /** The saved snapshot, or undefined when the file does not exist yet. */
  async load(): Promise<T | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new EmulatorError('emulator_state_unreadable', `Cannot read the emulator state file ${this.path}: ${(error as Error).message}. Check its permissions.`, { cause: error });
    }
    try {
      const parsed = JSON.parse(text) as { version?: unknown };
      if (parsed.version !== STATE_FILE_VERSION) throw new Error(`version ${JSON.stringify(parsed.version)} is not ${STATE_FILE_VERSION}`);
      return parsed as T;
    } catch (error) {
      throw new EmulatorError(
        'emulator_state_unreadable',
        `The emulator state file ${this.path} is not a valid state file (${(error as Error).message}). Delete it to start from an empty state.`,
        { cause: error },
      );
    }
  }

  /** Save soon; many calls in a burst give one write. */
  schedule(): void {
    this.#dirty = true;
    if (this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush().catch(() => {});
    }, STATE_SAVE_DEBOUNCE_MS);
    this.#timer.unref();
  }

  /** Write now if anything changed; resolves when the file is on disk. */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const run = this.#writing.then(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      await this.#write(JSON.stringify(this.#snapshot()));
    });
    this.#writing = run.catch(() => {});
    return run;
  }

  async #write(text: string): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    // Temp file + rename: a reader (or a killed process) never sees half a file.
    const temp = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await writeFile(temp, text, 'utf8');
      await rename(temp, this.path);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }
}
