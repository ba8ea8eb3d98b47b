// Warm-build benchmark: `astro build` of 1,000 articles all in the lock file and the cache, against the same bodies through Astro's glob() loader.
//
// Run: npm run build && node bench/warm-build.mjs   (BENCH_WARM_ARTICLES, BENCH_WARM_ROUNDS to change the size and repeats)
//
// Two copies of bench/fixtures/warm-site in a temp dir, same page template:
// - article-loader: articleLoader({ manifest }) over a manifest, lock file and cache of N finished
//   articles, configured for a live emulator (ARTICLES_API_URL/KEY) whose request log must stay empty;
// - glob: the same N bodies as local Markdown files (raw HTML, title in front matter, the <h1>
//   removed as articleLoader removes it) through glob({ pattern: '*.md' }).
// Each is built with an empty Astro data store ("cold": .astro and node_modules/.astro removed, as
// in a fresh CI checkout) and again with the store of the previous build ("warm": digests unchanged,
// nothing re-rendered). Builds alternate between the two sites so machine noise hits both alike.

import { cp, mkdir, mkdtemp, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCachedCorpus } from './article-corpus.mjs';
import { runAstroBuild } from './astro-child.mjs';
import { importDist } from './dist-location.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The package the sites install (AAL_PACKAGE: another checkout with its dist/, for A/B runs of a proposed change). */
const PACKAGE = process.env.AAL_PACKAGE === undefined ? REPO : resolve(process.env.AAL_PACKAGE);
const TARGET_RATIO = 1.1;
const VARIANTS = ['article-loader', 'glob'];

/** A copy of the fixture site with the chosen content config and a node_modules linking the repo's packages (and this package). */
async function makeSite(root, variant) {
  await cp(join(REPO, 'bench/fixtures/warm-site'), root, { recursive: true });
  await rename(join(root, `src/content.${variant}.mjs`), join(root, 'src/content.config.mjs'));
  for (const other of VARIANTS.filter((v) => v !== variant)) await rm(join(root, `src/content.${other}.mjs`));
  const modules = join(root, 'node_modules');
  await mkdir(modules);
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (!entry.startsWith('.')) await symlink(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  await symlink(PACKAGE, join(modules, 'astro-article-loader'));
}

function escapeYaml(text) {
  return JSON.stringify(text);
}

/** One `astro build`: wall time, the loader's own load() time and the pages written. */
async function astroBuild(root, env, { cold }) {
  if (cold) {
    await rm(join(root, '.astro'), { recursive: true, force: true });
    await rm(join(root, 'node_modules/.astro'), { recursive: true, force: true });
  }
  await rm(join(root, 'dist'), { recursive: true, force: true });
  const { code, output, wallMs } = await runAstroBuild(root, env);
  if (code !== 0) throw new Error(`astro build of ${root} failed (${code}):\n${output.slice(-4000)}`);
  const load = /\[bench\] load \S+ ([\d.]+) ms, (\d+) entries/.exec(output);
  const pages = (await readdir(join(root, 'dist/articles'))).length;
  return { wallMs, loadMs: load === null ? Number.NaN : Number(load[1]), entries: load === null ? 0 : Number(load[2]), pages, output };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function run({ articles = Number(process.env.BENCH_WARM_ARTICLES ?? 1_000), rounds = Number(process.env.BENCH_WARM_ROUNDS ?? 3) } = {}) {
  await importDist('index.js');
  const { startEmulator } = await importDist('emulator/index.js');
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-warm-'));
  const sites = { 'article-loader': join(root, 'article-loader'), glob: join(root, 'glob') };
  const emulator = await startEmulator({ rateLimit: false });
  try {
    for (const variant of VARIANTS) await makeSite(sites[variant], variant);
    const bodies = join(sites.glob, 'bodies');
    await mkdir(bodies);
    await writeCachedCorpus({
      dir: sites['article-loader'],
      count: articles,
      onBody: (spec, html) => writeFile(join(bodies, `${spec.slug}.md`), `---\ntitle: ${escapeYaml(spec.keyword)}\n---\n\n${html.replace(/^\s*<h1\b[^>]*>[\s\S]*?<\/h1>\s*/i, '')}\n`),
    });
    const env = { 'article-loader': { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey }, glob: {} };

    const runs = { 'article-loader': { cold: [], warm: [] }, glob: { cold: [], warm: [] } };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? VARIANTS : [...VARIANTS].reverse();
      for (const store of ['cold', 'warm']) {
        for (const variant of order) {
          const build = await astroBuild(sites[variant], env[variant], { cold: store === 'cold' });
          if (build.pages !== articles || build.entries !== articles) {
            throw new Error(`${variant} ${store} build wrote ${build.pages} pages from ${build.entries} entries, expected ${articles}:\n${build.output.slice(-3000)}`);
          }
          runs[variant][store].push(build);
        }
      }
    }
    const figure = (variant, store, key) => median(runs[variant][store].map((b) => b[key]));
    const ratio = (store) => figure('article-loader', store, 'wallMs') / figure('glob', store, 'wallMs');
    const requests = emulator.requests.length;
    const ms = (value) => Math.round(value);
    const s = (value) => Math.round(value / 100) / 10;
    return {
      name: 'warm build',
      notes: [
        `${articles} articles, ${rounds} round(s) per variant and store state (median); builds alternate between the two sites`,
        'article-loader: manifest + lock file + cache, service configured (emulator), every article reused; glob: the same bodies as local .md files',
        'cold store: .astro and node_modules/.astro removed before the build (a fresh CI checkout); warm store: left from the previous build',
        'load(): the loader\'s own load() as timed by a wrapper in the content config',
      ],
      figures: [
        { label: 'HTTP requests to the service (all builds)', value: requests, unit: '', target: '= 0', ok: requests === 0 },
        { label: 'build, cold store: articleLoader', value: s(figure('article-loader', 'cold', 'wallMs')), unit: 's' },
        { label: 'build, cold store: glob()', value: s(figure('glob', 'cold', 'wallMs')), unit: 's' },
        { label: 'build ratio articleLoader / glob(), cold store', value: round2(ratio('cold')), unit: '×', target: `≤ ${TARGET_RATIO}`, ok: ratio('cold') <= TARGET_RATIO },
        { label: 'build, warm store: articleLoader', value: s(figure('article-loader', 'warm', 'wallMs')), unit: 's' },
        { label: 'build, warm store: glob()', value: s(figure('glob', 'warm', 'wallMs')), unit: 's' },
        { label: 'build ratio articleLoader / glob(), warm store', value: round2(ratio('warm')), unit: '×', target: `≤ ${TARGET_RATIO}`, ok: ratio('warm') <= TARGET_RATIO },
        { label: 'articleLoader load(), cold store', value: ms(figure('article-loader', 'cold', 'loadMs')), unit: 'ms' },
        { label: 'articleLoader load(), warm store (digest skips)', value: ms(figure('article-loader', 'warm', 'loadMs')), unit: 'ms' },
        { label: 'glob() load(), cold store', value: ms(figure('glob', 'cold', 'loadMs')), unit: 'ms' },
        { label: 'glob() load(), warm store', value: ms(figure('glob', 'warm', 'loadMs')), unit: 'ms' },
      ],
    };
  } finally {
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printResult } = await import('./report.mjs');
  run().then(printResult, (error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
