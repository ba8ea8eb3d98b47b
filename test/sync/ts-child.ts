// Spawning TypeScript child processes (crash and concurrency tests) with the same Node as vitest.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOOKS = fileURLToPath(new URL('./child/ts-resolve-hooks.mjs', import.meta.url));

/** Node flags that run the repo's .ts sources directly: type transform plus `.js` → `.ts` resolution. */
export const TS_NODE_FLAGS = ['--experimental-transform-types', '--no-warnings', '--import', HOOKS];

export function childScript(name: string): string {
  return fileURLToPath(new URL(`./child/${name}`, import.meta.url));
}

export interface TsChild {
  process: ChildProcess;
  /** Everything the child printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code (or the signal name) once the child is gone. */
  exited: Promise<number | string>;
  /** Resolves when the child prints a line that matches. */
  waitFor(pattern: RegExp): Promise<string>;
}

export function spawnTsChild(script: string, args: string[] = [], env: Record<string, string> = {}): TsChild {
  const child = spawn(process.execPath, [...TS_NODE_FLAGS, script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const watchers: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const onData = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
    for (const watcher of [...watchers]) {
      const line = output.split('\n').find((l) => watcher.pattern.test(l));
      if (line !== undefined) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve(line);
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    process: child,
    output: () => output,
    exited,
    waitFor: (pattern) =>
      new Promise<string>((resolve, reject) => {
        const line = output.split('\n').find((l) => pattern.test(l));
        if (line !== undefined) return resolve(line);
        watchers.push({ pattern, resolve });
        void exited.then((code) => reject(new Error(`child exited (${code}) before printing ${pattern}:\n${output}`)));
      }),
  };
}
