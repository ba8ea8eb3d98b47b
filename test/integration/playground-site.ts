// Test harness: the playground as committed, copied and built offline once per test run for the files that only read the result.
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { astro, buildPackage, installModules, REPO, type RunResult } from '../loader/astro-site.js';
import { sharedBuild } from '../shared-build.js';

export interface BuiltPlayground {
  /** The copy's root: its dist/ holds the built site. */
  root: string;
  build: RunResult;
  /** The committed lock file, as it was before the build. */
  lockBefore: string;
}

/** A copy of playground/ (without its build output) with its node_modules, the package installed as published (installModules). */
async function copyPlayground(root: string): Promise<void> {
  await cp(join(REPO, 'playground'), root, { recursive: true, filter: (source) => !/[/\\](dist|node_modules|\.astro)$/.test(source) });
  await installModules(root);
}

/**
 * The playground built by `astro build` as a fresh clone builds it (offline, from the committed lock
 * file, cache and edits). playground.test.ts and playground-mobile.test.ts read the same build: it
 * is made once per run (it was one minute of a loaded 2-core machine per file).
 */
export async function builtPlayground(): Promise<BuiltPlayground> {
  const { dir, result } = await sharedBuild('playground', async (scope) => {
    await buildPackage();
    const root = join(scope, 'site');
    await copyPlayground(root);
    const lockBefore = await readFile(join(root, 'articles.lock.json'), 'utf8');
    const build = await astro(root, ['build']);
    return { build, lockBefore };
  });
  return { root: join(dir, 'site'), ...result };
}
