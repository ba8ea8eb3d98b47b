// The quality checks' cost: import times, checkArticle per article and findNearDuplicates at 1,000 articles (figures printed, never asserted).
//
// Run: npm run build && node bench/quality.mjs [--articles 1000] [--build-articles 1000]
// The last part builds a 1,000-article site (bench/fixtures/warm-site, a cached corpus, 0 requests) with
// an empty Astro data store four times, in one run: with processed records, checks on and off; and
// without them (every article through the pipeline), checks on and off. "Off" is every code set to
// 'off' in the manifest's `quality:`; the settings are part of the record's key, so each state primes its own records.
// Articles come from the emulator's placeholder writer (distinct keywords, every article type in
// turn) and go through the pipeline first, so the checks read final HTML as they will in a build.
// Two of them are made near-duplicates on purpose; the run says whether findNearDuplicates found them.

import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { runAstroBuild } from './astro-child.mjs';
import { distUrl, importDist } from './dist-location.mjs';
import { clearDataStore, makeWarmSites } from './warm-sites.mjs';

const { values } = parseArgs({ options: { articles: { type: 'string', default: '1000' }, 'build-articles': { type: 'string', default: '1000' }, repeat: { type: 'string', default: '3' } } });
const COUNT = Number(values.articles);
const SUBJECTS = ['espresso', 'sourdough', 'houseplant', 'bicycle', 'budget', 'garden', 'camera', 'running', 'kitchen', 'guitar', 'aquarium', 'hiking', 'podcast', 'laptop', 'yoga', 'chess', 'knitting', 'beekeeping', 'pottery', 'camping'];
const ANGLES = ['guide for beginners', 'mistakes to avoid', 'buying checklist', 'weekly routine', 'tools compared', 'on a budget', 'for small spaces', 'myths explained', 'step by step', 'tips from experts'];
const SHAPES = [{}, {}, {}, { articleType: 'listicle' }, { articleType: 'retail_product_roundup', numRetailProducts: 6 }, { includeFaq: true, includeKeyTakeaways: true }, { language: 'German' }];

/** Milliseconds to import `specifier` in a fresh Node process (the module graph cold, as in a build). */
function importMs(specifier) {
  const script = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function percentile(list, p) {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

const f = (ms) => `${ms.toFixed(2)} ms`;

console.log('Import times (fresh process, median of 3):');
for (const [name, specifier] of [
  ['zod (for scale: the loader loads it anyway)', 'zod'],
  ['src/pipeline (for scale)', distUrl('pipeline/index.js')],
  ['src/quality (the room\'s surface)', distUrl('quality/index.js')],
  ['franc', 'franc'],
  ['parse-latin', 'parse-latin'],
  ['retext-repeated-words', 'retext-repeated-words'],
  ['vfile', 'vfile'],
  ['language-check (franc + word counter)', distUrl('quality/language-check.js')],
  ['repeated-text-check (parse-latin, retext, vfile)', distUrl('quality/repeated-text-check.js')],
]) {
  console.log(`  ${name}: ${f(median([importMs(specifier), importMs(specifier), importMs(specifier)]))}`);
}

const [{ writeArticle }, { articleRequestSchema }, { processArticle }, quality] = await Promise.all([
  importDist('emulator/placeholder-writer/index.js'),
  importDist('contract/request-schema.js'),
  importDist('pipeline/index.js'),
  importDist('quality/index.js'),
]);

const started = performance.now();
const articles = [];
for (let i = 0; i < COUNT; i++) {
  const keyword = `${SUBJECTS[i % SUBJECTS.length]} ${ANGLES[Math.floor(i / SUBJECTS.length) % ANGLES.length]} ${i}`;
  const request = articleRequestSchema.parse({ targetKeyword: keyword, ...SHAPES[i % SHAPES.length] });
  const written = writeArticle(request);
  const processed = await processArticle(written.html, { keyword, slug: `article-${i}` });
  articles.push({ slug: `article-${i}`, html: processed.html, title: processed.title, request, raw: written.html });
}
// The planted pair: the last article is the first one with its opening paragraph rewritten.
articles[COUNT - 1] = { ...articles[0], slug: `article-${COUNT - 1}`, html: articles[0].html.replace(/<p>[^]*?<\/p>/, '<p>A new opening, written by hand.</p>') };
console.log(`\n${COUNT} articles written and processed in ${(performance.now() - started) / 1000 | 0} s (not part of the figures below)`);

const collection = { paths: articles.map((a) => `/articles/${a.slug}/`) };
const options = quality.resolveQualityOptions();
const first = performance.now();
await quality.checkArticle({ ...articles[0], collection }, options);
console.log(`\ncheckArticle, first call (loads franc and retext): ${f(performance.now() - first)}`);

// The pipeline runs beside each check, in turn, so both see the same load on a shared machine.
const times = [];
const counts = {};
let pipelineBeside = 0;
for (const article of articles) {
  const p = performance.now();
  await processArticle(article.raw, { keyword: article.request.targetKeyword, slug: article.slug });
  pipelineBeside += performance.now() - p;
  const t = performance.now();
  const findings = await quality.checkArticle({ ...article, collection }, options);
  times.push(performance.now() - t);
  for (const finding of findings) counts[`${finding.severity} ${finding.code}`] = (counts[`${finding.severity} ${finding.code}`] ?? 0) + 1;
}
const total = times.reduce((a, b) => a + b, 0);
console.log(`checkArticle per article (${COUNT}): mean ${f(total / COUNT)}, median ${f(median(times))}, p95 ${f(percentile(times, 0.95))}, total ${f(total)}`);
console.log(`  for scale, interleaved with it: the pipeline (processArticle) ${f(pipelineBeside / COUNT)} per article; checkArticle is ${((100 * total) / pipelineBeside).toFixed(0)}% of that`);
console.log('findings:', counts);

const nearStart = performance.now();
const pairs = quality.findNearDuplicates(articles, options.nearDuplicateThreshold);
const nearMs = performance.now() - nearStart;
console.log(`\nfindNearDuplicates at ${COUNT} articles: ${f(nearMs)} (${f(nearMs / COUNT)} per article), ${pairs.length} pair(s)`);
for (const pair of pairs) console.log(`  ${pair.slug} ~ ${pair.otherSlug}: ${pair.similarity.toFixed(3)}`);
const planted = pairs.some((pair) => pair.slug === `article-${COUNT - 1}` && pair.otherSlug === 'article-0');
console.log(`planted pair found: ${planted ? 'yes' : 'NO'}`);

// Builds: the checks' share of a cold-store build of BUILD_COUNT articles, with and without processed records.
const BUILD_COUNT = Number(values['build-articles']);
const { startEmulator } = await importDist('emulator/index.js');
const emulator = await startEmulator({ rateLimit: false });
const made = await makeWarmSites({ articles: BUILD_COUNT, emulator, variants: ['article-loader'] });
const site = made.sites['article-loader'];
const env = made.env['article-loader'];
const manifest = join(site, 'articles.yaml');
const plain = await readFile(manifest, 'utf8');
const allOff = `quality:\n  codes:\n${quality.QUALITY_CODES.map((code) => `    ${code}: "off"`).join('\n')}\n`;
const records = join(site, 'articles.cache/processed');

async function coldBuild(label) {
  await clearDataStore(site);
  await rm(join(site, 'dist'), { recursive: true, force: true });
  const { code, output, wallMs } = await runAstroBuild(site, env);
  if (code !== 0) throw new Error(`${label}: astro build failed (${code}):\n${output.slice(-3000)}`);
  const reused = /(\d+) taken already processed from the cache/.exec(output)?.[1] ?? '0';
  console.log(`  ${label}: ${(wallMs / 1000).toFixed(1)} s (${reused} from processed records; load ${loadavg()[0].toFixed(2)})`);
  return wallMs;
}

async function withoutRecords(label) {
  await rename(records, `${records}.kept`);
  try {
    return await coldBuild(label);
  } finally {
    await rm(records, { recursive: true, force: true });
    await rename(`${records}.kept`, records);
  }
}

// One build of each kind varies by ±10% on a shared machine: each is run REPEAT times and the medians compared. An
// article has one processed record (the settings are part of its key), so each setting is primed, then measured.
const REPEAT = Number(values.repeat);
console.log(`\nCold-store builds of ${BUILD_COUNT} articles, each kind ${REPEAT} times (load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}, 1/5/15 min):`);
const checksOn = () => writeFile(manifest, plain);
const checksOff = () => writeFile(manifest, allOff + plain);
const runs = { onWith: [], offWith: [], onWithout: [], offWithout: [] };
for (const [label, set, withKey, withoutKey] of [['on', checksOn, 'onWith', 'onWithout'], ['off', checksOff, 'offWith', 'offWithout']]) {
  await set();
  await coldBuild(`priming, checks ${label} (writes the records)`);
  for (let i = 1; i <= REPEAT; i++) {
    runs[withKey].push(await coldBuild(`#${i} checks ${label}, with processed records`));
    runs[withoutKey].push(await withoutRecords(`#${i} checks ${label}, without processed records`));
  }
}
await checksOn();
const [onWith, offWith, onWithout, offWithout] = [runs.onWith, runs.offWith, runs.onWithout, runs.offWithout].map(median);
const pct = (on, off) => `${(((on - off) / off) * 100).toFixed(1)}%`;
const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`checks' cost, cold store with processed records: ${(onWith / offWith).toFixed(3)}× (${pct(onWith, offWith)}; medians ${s(onWith)} on, ${s(offWith)} off; target ≤ 5%)`);
console.log(`checks' cost, cold store without processed records: ${(onWithout / offWithout).toFixed(3)}× (${pct(onWithout, offWithout)}; medians ${s(onWithout)} on, ${s(offWithout)} off; target ≤ 15%)`);
console.log(`requests to the service during the builds: ${emulator.requests.length}`);
await emulator.stop();
await rm(made.root, { recursive: true, force: true });
