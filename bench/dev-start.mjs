// Dev-start benchmark: time from starting `astro dev` to the first article page served, 50 cached articles, articleLoader against glob() over the same bodies.
//
// Run: npm run build && node bench/dev-start.mjs   (BENCH_DEV_ARTICLES, BENCH_DEV_ROUNDS to change the size and repeats)
//
// The sites are the warm-build benchmark's (warm-sites.mjs): the article loader over a manifest,
// lock file and cache whose articles are all finished (and processed by an earlier build), and
// glob() over the same bodies as Markdown files. Each round starts each dev server with an empty
// data store (as a first `astro dev` after a checkout), asks for one article page until it is
// served, and stops the server; the starts alternate between the sites. The emulator configured
// for the article loader must receive no request.

import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { rm } from 'node:fs/promises';
import { ASTRO, runAstroBuild } from './astro-child.mjs';
import { importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';
import { clearDataStore, makeWarmSites, median } from './warm-sites.mjs';

const RATIO_TARGET = 1.1;
const VARIANTS = ['article-loader', 'glob'];
/** Longest a dev server may take to serve its first page before the benchmark gives up. */
const START_LIMIT_MS = 180_000;

function freePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

/** Asks for `url` until it answers 200; resolves with the time it did, or throws with the server's output. */
async function firstPage(url, child, output) {
  const deadline = performance.now() + START_LIMIT_MS;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`astro dev exited (${child.exitCode}) before serving ${url}:\n${output()}`);
    const status = await fetch(url).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return performance.now();
    // Not listening yet (or still loading): ask again shortly; the step bounds the figure's resolution.
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 25));
  }
  throw new Error(`astro dev did not serve ${url} within ${START_LIMIT_MS / 1000} s:\n${output()}`);
}

/** One `astro dev` start with an empty data store: ms from spawn to the article page served. */
async function devStart(root, env, slug) {
  await clearDataStore(root);
  const port = await freePort();
  const childEnv = { ...process.env, NO_COLOR: '1', ASTRO_TELEMETRY_DISABLED: '1', ...env };
  delete childEnv.CI;
  const started = performance.now();
  const child = spawn(process.execPath, [ASTRO, 'dev', '--root', root, '--port', String(port), '--host', '127.0.0.1'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk) => (text += chunk));
  child.stderr.on('data', (chunk) => (text += chunk));
  const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
  try {
    const served = await firstPage(`http://127.0.0.1:${port}/articles/${slug}/`, child, () => text.slice(-4000));
    return served - started;
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

export async function run({ articles = Number(process.env.BENCH_DEV_ARTICLES ?? 50), rounds = Number(process.env.BENCH_DEV_ROUNDS ?? 5) } = {}) {
  const { startEmulator } = await importDist('emulator/index.js');
  const emulator = await startEmulator({ rateLimit: false });
  let root;
  try {
    const made = await makeWarmSites({ articles, emulator, variants: VARIANTS });
    root = made.root;
    const { sites, env, slugs } = made;
    // The build that made the commit: it wrote articles.cache/processed/.
    const build = await runAstroBuild(sites['article-loader'], env['article-loader']);
    if (build.code !== 0) throw new Error(`astro build failed:\n${build.output.slice(-4000)}`);
    const slug = slugs[Math.floor(slugs.length / 2)];
    const times = { 'article-loader': [], glob: [] };
    for (let round = 0; round < rounds; round++) {
      for (const variant of round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) times[variant].push(await devStart(sites[variant], env[variant], slug));
    }
    const ours = median(times['article-loader']);
    const glob = median(times.glob);
    const ratio = ours / glob;
    const requests = emulator.requests.length;
    const s = (ms) => Math.round(ms / 10) / 100;
    return {
      name: `dev start, ${articles} articles`,
      notes: [
        `astro dev started ${rounds} times per site (median), empty data store each time, starts alternating; time from spawn to the first 200 for /articles/<slug>/`,
        'article-loader: every article in the lock file, the cache and its processed records; glob: the same bodies as .md files',
      ],
      figures: [
        { label: 'HTTP requests to the service (all starts)', value: requests, unit: '', target: '= 0', ok: requests === 0 },
        { label: 'astro dev to first article page: articleLoader', value: s(ours), unit: 's' },
        { label: 'astro dev to first article page: glob()', value: s(glob), unit: 's' },
        { label: 'ratio articleLoader / glob(), dev start', value: Math.round(ratio * 100) / 100, unit: '×', target: `≤ ${RATIO_TARGET}`, ok: ratio <= RATIO_TARGET },
      ],
    };
  } finally {
    await emulator.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
