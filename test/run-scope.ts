// Vitest global setup: one temporary folder per test run, where files share what they would otherwise each build.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder that lives as long as this test run (see test/shared-build.ts). */
    runScope: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'aal-run-'));
  project.provide('runScope', dir);
  return () => rm(dir, { recursive: true, force: true });
}
