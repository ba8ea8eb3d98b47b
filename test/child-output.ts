// Test harness: what a child process printed, waited on by complete lines, so a test never reads a line half-arrived.
import type { ChildProcess } from 'node:child_process';

export interface WaitOptions {
  /** Look from this offset of the text on (`output.text.length` before a command: only what answers it). */
  from?: number;
  /** A reason the wait cannot succeed any more (the child is gone), or undefined. */
  failed?: () => string | undefined;
}

/**
 * The text of a child's stdout and stderr as it arrives. A pipe hands output over in chunks of any
 * size, so a pattern tested against everything received may match a line cut short ("listening on
 * http://127.0.0.1:4" of port 4012): waits look at complete lines only, and at the last, unfinished
 * line only once the child is gone and nothing more can come.
 */
export class ChildOutput {
  #text = '';
  #ended: string | undefined;
  readonly #waiters = new Set<() => void>();

  /** Follows `child`'s stdout and stderr; the output ends (waits fail with `what`) when the child has exited and its streams are closed. */
  static of(child: ChildProcess, what = 'the child'): ChildOutput {
    const output = new ChildOutput().follow(child);
    child.once('close', (code, signal) => output.end(`${what} exited (${code ?? signal})`));
    return output;
  }

  /**
   * Appends what `child` prints on stdout and stderr. Each stream is decoded as UTF-8 across chunks:
   * a chunk may end inside a character (✓, →, ≈), which decoding chunk by chunk turns into U+FFFD.
   */
  follow(child: ChildProcess): this {
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => this.append(chunk));
    }
    return this;
  }

  append(chunk: string): void {
    this.#text += chunk;
    this.#wake();
  }

  /** Nothing more will arrive: `reason` says why (the child exited). */
  end(reason: string): void {
    this.#ended ??= reason;
    this.#wake();
  }

  get text(): string {
    return this.#text;
  }

  /** The complete lines received so far (all of the text once the output has ended). */
  get complete(): string {
    return this.#ended === undefined ? this.#text.slice(0, this.#text.lastIndexOf('\n') + 1) : this.#text;
  }

  /**
   * Resolves with the first match of `pattern` in the complete lines from offset `from` on; rejects
   * when the output ends, or `failed()` names a reason, before a match.
   */
  waitFor(pattern: RegExp, options: WaitOptions = {}): Promise<RegExpExecArray> {
    return this.#until((lines) => pattern.exec(lines) ?? undefined, pattern, options);
  }

  /** Resolves with the first complete line that matches `pattern`, tested line by line (so `^` and `$` are the line's). */
  waitForLine(pattern: RegExp, options: WaitOptions = {}): Promise<string> {
    return this.#until((lines) => lines.split('\n').find((line) => pattern.test(line)), pattern, options);
  }

  #until<T>(find: (lines: string) => T | undefined, pattern: RegExp, options: WaitOptions): Promise<T> {
    return new Promise((resolvePromise, reject) => {
      const check = (): void => {
        const found = find(this.complete.slice(options.from ?? 0));
        if (found !== undefined) {
          this.#waiters.delete(check);
          resolvePromise(found);
          return;
        }
        const failure = options.failed?.() ?? this.#ended;
        if (failure !== undefined) {
          this.#waiters.delete(check);
          reject(new Error(`${failure} before ${pattern} appeared:\n${this.#text}`));
        }
      };
      this.#waiters.add(check);
      check();
    });
  }

  #wake(): void {
    for (const wake of [...this.#waiters]) wake();
  }
}
