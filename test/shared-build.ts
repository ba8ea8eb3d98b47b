// Test harness: something several test files build identically (the playground site), built once per test run and shared.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { inject } from 'vitest';

/**
 * Runs `build` once per test run under `name`, in a folder of its own that lives until the run ends,
 * and returns its JSON result: the first file to ask builds while the others wait on a lock, then
 * each reads what the first recorded (a failed build too, so every file reports it). Only for
 * results that files read and never change.
 */
export async function sharedBuild<T>(name: string, build: (dir: string) => Promise<T>): Promise<{ dir: string; result: T }> {
  const dir = join(inject('runScope'), name);
  await mkdir(dir, { recursive: true });
  const recorded = join(dir, 'shared-build.json');
  // A build takes a minute on a loaded machine: wait up to five (proper-lockfile refreshes a held lock, so it never goes stale meanwhile).
  const release = await lockfile.lock(dir, { retries: { retries: 600, minTimeout: 200, maxTimeout: 500 }, stale: 60_000 });
  try {
    const existing = await readFile(recorded, 'utf8').catch(() => undefined);
    if (existing !== undefined) return { dir, result: JSON.parse(existing) as T };
    const result = await build(dir);
    await writeFile(recorded, JSON.stringify(result));
    return { dir, result };
  } finally {
    await release();
  }
}
