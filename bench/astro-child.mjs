// Running `astro build` (or `astro sync`) in a child process for a benchmark: the repository's Astro on this Node, no CI, no colours, no telemetry.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const ASTRO = join(REPO, 'node_modules/astro/bin/astro.mjs');

/** `astro build --root root` with `env` added; resolves with the exit code, stdout and stderr together, and the wall time. */
export function runAstroBuild(root, env = {}) {
  return runAstro('build', root, env);
}

/** `astro <command> --root root` with `env` added (`sync`: the content layer's loaders alone, no pages), as `runAstroBuild`. */
export async function runAstro(command, root, env = {}) {
  const childEnv = { ...process.env, NO_COLOR: '1', ASTRO_TELEMETRY_DISABLED: '1', ...env };
  delete childEnv.CI;
  const started = performance.now();
  const { code, output } = await new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [ASTRO, command, '--root', root], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.stderr.on('data', (chunk) => (text += chunk));
    child.on('error', reject);
    child.on('close', (exit) => resolvePromise({ code: exit, output: text }));
  });
  return { code, output, wallMs: performance.now() - started };
}
