// Import benchmark: what `import('astro-article-loader')` costs a fresh Node process (median of 5), and its loader and integration entries, beside astro/loaders.
//
// Run: npm run build && node bench/import-cost.mjs   (BENCH_IMPORT_RUNS to change the repeats)
//
// Astro loads the package at least twice in a build (astro.config for the integration, the content
// config for the loader), so this cost is paid on every build and every dev start. Each figure is
// the median wall time of `await import(entry)` in a new process; the module count comes from one
// more process whose module hooks log every module resolved.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distUrl } from './dist-location.mjs';
import { runIfMain } from './report.mjs';
import { median } from './warm-sites.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ROOT_TARGET_MS = 150;
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (!resolved.url.startsWith('node:')) appendFileSync(process.env.AAL_MODULE_LOG, resolved.url + '\\n');
  return resolved;
}
`;

/** Runs `code` (an ES module body) in a fresh Node from the repository; resolves with its stdout. */
function node(code, env = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (exit) => (exit === 0 ? resolvePromise(out) : reject(new Error(`node -e exited ${exit}: ${code}`))));
  });
}

/** Median import time of `specifier` over `runs` fresh processes, and the modules it loads. */
async function measure(specifier, runs, dir, { after } = {}) {
  const times = [];
  const first = after === undefined ? '' : `await import(${JSON.stringify(after)}); `;
  for (let i = 0; i < runs; i++) {
    times.push(Number(await node(`${first}const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`)));
  }
  const log = join(dir, `${times.length}-${Math.random().toString(36).slice(2)}.log`);
  const register = pathToFileURL(join(dir, 'register.mjs')).href;
  await node(`await import(${JSON.stringify(specifier)});`, { NODE_OPTIONS: `--import ${register}`, AAL_MODULE_LOG: log });
  const modules = new Set((await readFile(log, 'utf8')).split('\n').filter((line) => line !== ''));
  return { ms: median(times), modules: modules.size };
}

export async function run({ runs = Number(process.env.BENCH_IMPORT_RUNS ?? 5) } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'aal-bench-import-'));
  try {
    await writeFile(join(dir, 'hooks.mjs'), HOOKS);
    await writeFile(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
    // The package by its name (self-reference from the repository) unless AAL_DIST names another build.
    const root = await measure(process.env.AAL_DIST === undefined ? 'astro-article-loader' : distUrl('index.js'), runs, dir);
    const loader = await measure(distUrl('loader/index.js'), runs, dir);
    const integration = await measure(distUrl('integration/index.js'), runs, dir);
    const astro = await measure('astro/loaders', runs, dir);
    // In a build Astro has loaded zod before the package (one copy: Astro 6 and 7 depend on zod 4 too), so what the package adds there is the rest.
    const rootAfterZod = await measure(process.env.AAL_DIST === undefined ? 'astro-article-loader' : distUrl('index.js'), runs, dir, { after: 'zod' });
    const astroAfterZod = await measure('astro/loaders', runs, dir, { after: 'zod' });
    const ms = (value) => Math.round(value);
    return {
      name: 'import',
      notes: [`median of ${runs} fresh Node processes each; modules counted by module hooks in one more (node: builtins left out)`, 'astro/loaders: what glob() costs to import, for scale', '"with zod loaded first": the time after `import(\'zod\')` in the same process, which Astro has done before a build loads the package'],
      figures: [
        { label: "import('astro-article-loader')", value: ms(root.ms), unit: 'ms', target: `≤ ${ROOT_TARGET_MS}`, ok: root.ms <= ROOT_TARGET_MS },
        { label: "import('astro-article-loader'): modules", value: root.modules, unit: '' },
        { label: 'import of the loader entry (dist/loader/index.js)', value: ms(loader.ms), unit: 'ms' },
        { label: 'import of the loader entry: modules', value: loader.modules, unit: '' },
        { label: 'import of the integration (dist/integration/index.js)', value: ms(integration.ms), unit: 'ms' },
        { label: 'import of the integration: modules', value: integration.modules, unit: '' },
        { label: "import('astro/loaders')", value: ms(astro.ms), unit: 'ms' },
        { label: "import('astro/loaders'): modules", value: astro.modules, unit: '' },
        { label: "ratio import('astro-article-loader') / import('astro/loaders')", value: Math.round((root.ms / astro.ms) * 100) / 100, unit: '×' },
        { label: "import('astro-article-loader') with zod loaded first (as in a build)", value: ms(rootAfterZod.ms), unit: 'ms', target: `≤ ${ROOT_TARGET_MS}`, ok: rootAfterZod.ms <= ROOT_TARGET_MS },
        { label: "import('astro/loaders') with zod loaded first", value: ms(astroAfterZod.ms), unit: 'ms' },
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
