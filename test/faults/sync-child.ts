// Sync runs in child processes on the compiled package, for the kill -9 and concurrent-build scenarios.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Campaign } from './campaign.js';

const CHILD = fileURLToPath(new URL('./child/sync-child.mjs', import.meta.url));

export interface ChildConfig {
  lockFile: string;
  baseUrl: string;
  keywords: string[];
  idempotentCreates: boolean;
  /** Extra request parameters for every article. */
  request?: Record<string, unknown>;
  /** syncArticles options (JSON only). */
  options?: Record<string, unknown>;
}

export interface SyncChild {
  process: ChildProcess;
  lines: string[];
  /** Resolves when the child has printed `count` lines (or has exited). */
  lines$(count: number): Promise<void>;
  exited: Promise<number | string>;
}

/** Starts a child sync; its output lines go to the campaign log. */
export async function startSyncChild(campaign: Campaign, dir: string, name: string, config: ChildConfig): Promise<SyncChild> {
  const configFile = join(dir, `${name}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const child = spawn(process.execPath, [CHILD, configFile], {
    env: { ...process.env, ARTICLES_API_KEY: campaign.apiKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const onLines = (complete: string[]): void => {
    for (const line of complete) {
      lines.push(line);
      campaign.log(`${name}: ${line}`);
    }
    for (const waiter of [...waiters]) {
      if (lines.length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  // Each stream split into lines on its own (a stderr chunk never lands inside a stdout line), decoded across chunks.
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      const complete = (partial + chunk).split('\n');
      partial = complete.pop() ?? '';
      onLines(complete);
    });
  }
  const exited = new Promise<number | string>((resolvePromise) => child.on('exit', (code, signal) => resolvePromise(code ?? signal ?? -1)));
  void exited.then(() => {
    for (const waiter of waiters.splice(0)) waiter.resolve();
  });
  return {
    process: child,
    lines,
    lines$: (count) => (lines.length >= count || child.exitCode !== null ? Promise.resolve() : new Promise((resolvePromise) => waiters.push({ count, resolve: resolvePromise }))),
    exited,
  };
}
