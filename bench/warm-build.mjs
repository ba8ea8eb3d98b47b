// Warm-build benchmark: `astro build` of N articles (50 and 1,000 by default) all in the lock file and the cache, against the same bodies through Astro's glob() loader
// and through a bare loader that stores the HTML as it is (the floor for any HTML loader).
//
// Run: npm run build && node bench/warm-build.mjs   (BENCH_WARM_ARTICLES, BENCH_WARM_ROUNDS to change the sizes and repeats;
//      BENCH_WARM_COVER_CARD=false builds the article loader's site without cover cards, to see what they cost a build;
//      BENCH_WARM_VARIANTS=article-loader,bare leaves glob() out: at 10,000 articles its two builds take about 9 minutes,
//      and the lines there are against the bare floor; the glob() lines then read "not measured")
//
// By default at 50 and 1,000 articles, so the fixed cost of a small site stays visible beside the
// cost per article; BENCH_WARM_ARTICLES=10000 (or a list, 50,1000,10000) for other sizes. Three
// copies of bench/fixtures/warm-site in a temp dir, same page template (see warm-sites.mjs): the
// article loader over a cached corpus, glob() over the same bodies, and a bare HTML loader (the floor).
// Each is built with an empty Astro data store ("cold": .astro and node_modules/.astro removed, as
// in a fresh CI checkout) and again with the store of the previous build ("warm": digests unchanged,
// nothing re-rendered). Builds alternate between the sites so machine noise hits all alike. Before
// the rounds, one articleLoader build writes articles.cache/processed/, as the build that made the
// site's commit did; once per round, a cold build without those records measures the first build
// after a pipeline change (every article processed). From 10,000 articles on, after the rounds, cold `astro sync` runs of the
// article loader's site and the floor's, alternating, give the load() line its verdict (SYNC_ROUNDS, medians).

import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runAstro, runAstroBuild } from './astro-child.mjs';
import { importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';
import { clearDataStore, makeWarmSites, median, VARIANTS } from './warm-sites.mjs';

/**
 * The build against glob() over the same bodies, cold store and warm: no slower at a small site, and from 1,000 articles on
 * at most 0.95× (issue 42's target). load(): within 1.5x glob's.
 */
const globTarget = (articles) => (articles >= 1_000 ? 0.95 : 1.0);
const LOAD_TARGET = 1.5;
/** An entry's data besides its HTML, as Astro stores it: what a page renders (issue 42; it was about 7 KB). */
const ENTRY_DATA_TARGET = 1536;
/** From 10,000 articles on (issue 42), where the fixed cost no longer hides the cost per article: the cold-store build within 1.10× the bare floor's, its load() within 2×. */
const LARGE_SITE = 10_000;
const FLOOR_BUILD_TARGET = 1.1;
const FLOOR_LOAD_TARGET = 2;
/**
 * At a large site the load() line is judged on cold `astro sync` runs (the content layer's load() alone), this many of each
 * loader, alternating, medians: one build's load() of each moved the ratio by ±0.4× between runs of unchanged code (the floor's
 * own load() took 1.10 s in one run and 1.78 s in another; docs/builds.md, "The tenth part").
 */
const SYNC_ROUNDS = Number(process.env.BENCH_SYNC_ROUNDS ?? 5);

/** A loader's own load() as the content config's wrapper prints it: milliseconds and entries, or NaN and 0 without the line. */
function loadOf(output) {
  const load = /\[bench\] load \S+ ([\d.]+) ms, (\d+) entries/.exec(output);
  return { loadMs: load === null ? Number.NaN : Number(load[1]), entries: load === null ? 0 : Number(load[2]) };
}

/** One `astro build`: wall time, the loader's own load() time and the pages written. */
async function astroBuild(root, env, { cold }) {
  if (cold) await clearDataStore(root);
  await rm(join(root, 'dist'), { recursive: true, force: true });
  const { code, output, wallMs } = await runAstroBuild(root, env);
  if (code !== 0) throw new Error(`astro build of ${root} failed (${code}):\n${output.slice(-4000)}`);
  const pages = (await readdir(join(root, 'dist/articles'))).length;
  // The article loader's closing line names the articles it placed anew (rendered, or taken from the processed cache); a warm store places none.
  const placed = /(\d[\d,]*) articles? rendered(?:, (\d[\d,]*) taken already processed)?/.exec(output);
  const count = (text) => Number((text ?? '0').replaceAll(',', ''));
  return { wallMs, ...loadOf(output), pages, placed: placed === null ? 0 : count(placed[1]) + count(placed[2]), output };
}

/**
 * Cold `astro sync` of the article loader's site and the floor's, `rounds` of each, alternating: each load() and its entries.
 * The article loader's site keeps its processed records, as in the cold builds.
 */
async function coldSyncs(sites, env, articles, rounds) {
  const loads = { 'article-loader': [], bare: [] };
  for (let round = 0; round < rounds; round++) {
    for (const variant of round % 2 === 0 ? ['article-loader', 'bare'] : ['bare', 'article-loader']) {
      await clearDataStore(sites[variant]);
      const { code, output } = await runAstro('sync', sites[variant], env[variant]);
      const { loadMs, entries } = loadOf(output);
      if (code !== 0 || entries !== articles) throw new Error(`astro sync of ${variant} failed (${code}) or loaded ${entries} entries, expected ${articles}:\n${output.slice(-3000)}`);
      loads[variant].push(loadMs);
    }
  }
  return loads;
}

/** The processed records' count and bytes, and the outputs' bytes, in the site's cache. */
async function processedSize(root) {
  const sizes = async (dir) => Promise.all((await readdir(dir)).map(async (name) => (await stat(join(dir, name))).size));
  const records = await sizes(join(root, 'articles.cache/processed'));
  const outputs = await sizes(join(root, 'articles.cache/outputs'));
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  return { files: records.length, bytes: sum(records), outputBytes: sum(outputs) * (records.length / outputs.length) };
}

/** What Astro stored of each entry, on average: its data, and the whole entry less its HTML, in bytes as devalue writes them into the data store. */
async function storedEntrySize(root) {
  const { parse, stringify } = await import('devalue');
  const store = parse(await readFile(join(root, 'node_modules/.astro/data-store.json'), 'utf8'));
  const entries = [...(store.get('articles')?.values() ?? [])];
  const average = (sizeOf) => Math.round(entries.reduce((sum, entry) => sum + Buffer.byteLength(sizeOf(entry)), 0) / entries.length);
  return { data: average((entry) => stringify(entry.data)), besidesHtml: average((entry) => stringify({ ...entry, rendered: { ...entry.rendered, html: '' } })) };
}

/** The sizes to run: BENCH_WARM_ARTICLES (one size or a comma list), else 50 and 1,000. */
function sizes() {
  const given = process.env.BENCH_WARM_ARTICLES;
  return given === undefined ? [50, 1_000] : given.split(',').map((size) => Number(size.trim()));
}

/** The warm-build figures at each size: one result per size, the fixed cost beside the cost per article. */
export async function run({ rounds = Number(process.env.BENCH_WARM_ROUNDS ?? 3) } = {}) {
  const results = [];
  for (const articles of sizes()) results.push(await runAt({ articles, rounds }));
  return results;
}

/** The variants to build: BENCH_WARM_VARIANTS (a comma list; the article loader always), else all three. */
function variantsToRun() {
  const given = process.env.BENCH_WARM_VARIANTS?.split(',').map((name) => name.trim());
  return given === undefined ? VARIANTS : VARIANTS.filter((variant) => variant === 'article-loader' || given.includes(variant));
}

async function runAt({ articles, rounds }) {
  await importDist('index.js');
  const { startEmulator } = await importDist('emulator/index.js');
  const emulator = await startEmulator({ rateLimit: false });
  const variants = variantsToRun();
  let root;
  try {
    const made = await makeWarmSites({ articles, emulator, variants });
    root = made.root;
    const { sites, env } = made;
    // The build that made the commit: it wrote articles.cache/processed/.
    await astroBuild(sites['article-loader'], env['article-loader'], { cold: true });
    const processed = await processedSize(sites['article-loader']);
    const stored = await storedEntrySize(sites['article-loader']);

    const runs = Object.fromEntries([...VARIANTS, 'reprocess'].map((variant) => [variant, { cold: [], warm: [] }]));
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      const records = join(sites['article-loader'], 'articles.cache/processed');
      await rename(records, `${records}.kept`);
      runs.reprocess.cold.push(await astroBuild(sites['article-loader'], env['article-loader'], { cold: true }));
      await rm(records, { recursive: true });
      await rename(`${records}.kept`, records);
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
    // At a large site, the load() line's verdict: cold `astro sync` runs of each loader, alternating, medians.
    const syncs = articles >= LARGE_SITE && variants.includes('bare') ? await coldSyncs(sites, env, articles, SYNC_ROUNDS) : undefined;
    const syncLoadRatio = syncs === undefined ? Number.NaN : median(syncs['article-loader']) / median(syncs.bare);
    const figure = (variant, store, key) => median(runs[variant][store].map((b) => b[key]));
    const ratio = (store, over = 'glob') => figure('article-loader', store, 'wallMs') / figure(over, store, 'wallMs');
    const loadRatio = figure('article-loader', 'cold', 'loadMs') / figure('glob', 'cold', 'loadMs');
    const warmLoadRatio = figure('article-loader', 'warm', 'loadMs') / figure('glob', 'warm', 'loadMs');
    const floor = figure('bare', 'cold', 'wallMs') / figure('glob', 'cold', 'wallMs');
    const floorLoadRatio = figure('article-loader', 'cold', 'loadMs') / figure('bare', 'cold', 'loadMs');
    // The floor's targets hold for a large site only: at 50 articles the fixed cost is most of either.
    const large = (value, target) => (articles >= LARGE_SITE ? { target: `≤ ${target}`, ok: value <= target } : {});
    const requests = emulator.requests.length;
    // A cold store places every article: the line below would read 0 for a closing line the pattern no longer finds.
    if (runs['article-loader'].cold.some((build) => build.placed !== articles)) throw new Error(`a cold-store articleLoader build did not say it placed all ${articles} articles`);
    const placedWarm = Math.max(...runs['article-loader'].warm.map((build) => build.placed));
    const ms = (value) => Math.round(value);
    const s = (value) => Math.round(value / 100) / 10;
    return {
      name: `warm build, ${articles.toLocaleString('en-US')} articles`,
      notes: [
        `${articles} articles, ${rounds} round(s) per variant and store state (median); builds alternate between the three sites`,
        'article-loader: manifest + lock file + cache (with articles.cache/processed/ from an earlier build), service configured (emulator), every article reused',
        ...(process.env.BENCH_WARM_COVER_CARD === 'false' ? ['article-loader: no cover cards this run (BENCH_WARM_COVER_CARD=false, the loader option coverCard: false); by default each article without images has one, which Vite copies into the output on every build'] : []),
        'glob: the same bodies as local .md files; bare: the same bodies stored as they are with a digest, no pipeline (the floor for an HTML loader)',
        'cold store: .astro and node_modules/.astro removed before the build (a fresh CI checkout); warm store: left from the previous build',
        'load(): each loader\'s own load() as timed by a wrapper in the content config',
        ...VARIANTS.filter((variant) => !variants.includes(variant)).map((variant) => `${variant}: not built this run (BENCH_WARM_VARIANTS); its lines are left out`),
        `articleLoader load() of each build, cold store: ${runs['article-loader'].cold.map((b) => ms(b.loadMs)).join(', ')} ms; warm store: ${runs['article-loader'].warm.map((b) => ms(b.loadMs)).join(', ')} ms`,
        ...(syncs === undefined ? [] : [`cold astro sync, ${SYNC_ROUNDS} of each, alternating: articleLoader load() ${syncs['article-loader'].map(ms).join(', ')} ms; bare ${syncs.bare.map(ms).join(', ')} ms`]),
        `processed records: ${processed.files} files, ${Math.round(processed.bytes / processed.files)} bytes each on average (gzip), against ${Math.round(processed.outputBytes / processed.files)} bytes per cached output`,
      ],
      figures: [
        { label: 'HTTP requests to the service (all builds)', value: requests, unit: '', target: '= 0', ok: requests === 0 },
        { label: 'build, cold store: articleLoader', value: s(figure('article-loader', 'cold', 'wallMs')), unit: 's' },
        { label: 'build, cold store: glob()', value: s(figure('glob', 'cold', 'wallMs')), unit: 's' },
        { label: 'build, cold store: bare HTML loader (floor)', value: s(figure('bare', 'cold', 'wallMs')), unit: 's' },
        { label: 'build ratio articleLoader / glob(), cold store', value: round2(ratio('cold')), unit: '×', target: `≤ ${globTarget(articles)}`, ok: ratio('cold') <= globTarget(articles) },
        { label: 'build ratio bare floor / glob(), cold store', value: round2(floor), unit: '×' },
        { label: 'build ratio articleLoader / bare floor, cold store', value: round2(ratio('cold', 'bare')), unit: '×', ...large(ratio('cold', 'bare'), FLOOR_BUILD_TARGET) },
        { label: 'build, cold store, no processed records (after a pipeline change)', value: s(figure('reprocess', 'cold', 'wallMs')), unit: 's' },
        { label: 'build, warm store: articleLoader', value: s(figure('article-loader', 'warm', 'wallMs')), unit: 's' },
        { label: 'build, warm store: glob()', value: s(figure('glob', 'warm', 'wallMs')), unit: 's' },
        { label: 'build ratio articleLoader / glob(), warm store', value: round2(ratio('warm')), unit: '×', target: `≤ ${globTarget(articles)}`, ok: ratio('warm') <= globTarget(articles) },
        { label: 'articleLoader load(), cold store', value: ms(figure('article-loader', 'cold', 'loadMs')), unit: 'ms' },
        { label: 'glob() load(), cold store', value: ms(figure('glob', 'cold', 'loadMs')), unit: 'ms' },
        { label: 'bare load(), cold store', value: ms(figure('bare', 'cold', 'loadMs')), unit: 'ms' },
        { label: 'load() ratio articleLoader / glob(), cold store', value: round2(loadRatio), unit: '×', target: `≤ ${LOAD_TARGET}`, ok: loadRatio <= LOAD_TARGET },
        { label: 'load() ratio articleLoader / bare floor, cold-store build (one of each a round)', value: round2(floorLoadRatio), unit: '×' },
        ...(syncs === undefined
          ? []
          : [
              { label: `articleLoader load(), cold astro sync (median of ${SYNC_ROUNDS})`, value: ms(median(syncs['article-loader'])), unit: 'ms' },
              { label: `bare load(), cold astro sync (median of ${SYNC_ROUNDS})`, value: ms(median(syncs.bare)), unit: 'ms' },
              { label: 'load() ratio articleLoader / bare floor, cold store (astro sync, medians)', value: round2(syncLoadRatio), unit: '×', ...large(syncLoadRatio, FLOOR_LOAD_TARGET) },
            ]),
        { label: 'articleLoader load(), cold store, no processed records', value: ms(figure('reprocess', 'cold', 'loadMs')), unit: 'ms' },
        { label: 'articleLoader load(), warm store (digest skips)', value: ms(figure('article-loader', 'warm', 'loadMs')), unit: 'ms' },
        { label: 'articleLoader, warm store: articles placed anew (the most in one build)', value: placedWarm, unit: '', target: '= 0', ok: placedWarm === 0 },
        { label: 'glob() load(), warm store', value: ms(figure('glob', 'warm', 'loadMs')), unit: 'ms' },
        { label: 'load() ratio articleLoader / glob(), warm store', value: round2(warmLoadRatio), unit: '×', target: `≤ ${LOAD_TARGET}`, ok: warmLoadRatio <= LOAD_TARGET },
        { label: 'processed record size per article (gzip)', value: Math.round(processed.bytes / processed.files), unit: 'B' },
        { label: 'entry data besides the HTML, average as stored', value: stored.data, unit: 'B', target: `≤ ${ENTRY_DATA_TARGET}`, ok: stored.data <= ENTRY_DATA_TARGET },
        { label: 'whole entry less its HTML (data, digest, headings, image paths), average as stored', value: stored.besidesHtml, unit: 'B' },
      ].filter((line) => Number.isFinite(line.value)),
    };
  } finally {
    await emulator.stop();
    if (root !== undefined) await rm(root, { recursive: true, force: true });
  }
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

runIfMain(import.meta.url, run);
