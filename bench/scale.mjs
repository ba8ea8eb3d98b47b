// Scale benchmark: the CLI's sync (from nothing, then with nothing to do), plan, verify and check, and the loader's load(), at 10,000 and 100,000 articles against the emulator command at instant speed; each with its wall time, peak memory and the lock file's size, and the ratio to the same run at the smallest size.
//
// Run: npm run build && node bench/run.mjs --only scale
//      BENCH_SCALE_SIZES=10000,100000 (default)  BENCH_SCALE_BASE=2500 (the sync whose ratio to the first size is linear at 4×; 0 skips it)
//      BENCH_SCALE_CONCURRENCY=8  BENCH_SCALE_OUT=<file> (each figure appended as a JSON line as soon as it is measured)
//      BENCH_SCALE_STEPS=sync,warm sync (only these steps, by name; default all: a 100,000-article run takes about 25 minutes)
//
// Each size is a new site (a manifest of N keywords), synced with `sync --concurrency 8` from nothing against
// `astro-article-loader emulator --speed instant --rate-limit 0` in its own process. Every measured step is a child
// process of its own (the CLI, or bench/store-load.mjs for load()), so its peak memory is its own maxRSS and its CPU time
// its own, read by bench/peak-memory.mjs as it exits (on a shared machine, CPU time shows linearity where wall time wavers). load() runs twice: first with no processed records (every article through the
// pipeline and the quality checks, records written), then again with a cold store (no Astro cache): the store-only load()
// over N records. check runs last, on the records that load() wrote. sync, plan and verify run at every size before
// load() and check run at any.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusKeywords } from './article-corpus.mjs';
import { distUrl } from './dist-location.mjs';
import { runIfMain } from './report.mjs';

const CLI = fileURLToPath(distUrl('cli/index.js'));
const PEAK = fileURLToPath(new URL('peak-memory.mjs', import.meta.url));
const STORE_LOAD = fileURLToPath(new URL('store-load.mjs', import.meta.url));
/**
 * A pass keeps its store writes until it ends (loader/store-batch.ts), so every entry's HTML is held then, as Astro's
 * store holds it: at 100,000 articles that passes Node's default heap limit (about 4 GB here), where bench/store-load.mjs's
 * store, which drops the HTML, used to stay under it. The peak memory measured is the process's, whatever the limit.
 */
const STORE_LOAD_HEAP = ['--max-old-space-size=16384'];

/** Each step at 100,000 within 11× its time at 10,000 (linear, with 10% to spare); peak memory within 2 GB. */
const LINEAR_TARGET = 11;
const MEMORY_TARGET_MB = 2048;
/** sync from nothing at 10,000 within 4.4× its time at 2,500. */
const SYNC_BASE_TARGET = 4.4;
/** check on a site with records within 3× plan on it. */
const CHECK_TARGET = 3;

const ALL_STEPS = ['sync', 'warm sync', 'plan', 'verify', 'load(), no records', 'load(), records', 'check'];
const STEPS = process.env.BENCH_SCALE_STEPS === undefined ? ALL_STEPS : ALL_STEPS.filter((step) => process.env.BENCH_SCALE_STEPS.split(',').map((name) => name.trim()).includes(step));

function sizesFromEnv() {
  return (process.env.BENCH_SCALE_SIZES ?? '10000,100000').split(',').map((size) => Number(size.trim()));
}

/** The emulator command in its own process; resolves with its URL once it listens. */
async function startEmulatorCommand() {
  const child = spawn(process.execPath, [CLI, 'emulator', '--port', '0', '--speed', 'instant', '--rate-limit', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match !== null) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening:\n${seen}`)));
  });
  child.stdout.resume();
  child.stderr.resume();
  return {
    url,
    apiKey: 'emulator-dev-key',
    /** The emulator's CPU time so far (user + system, ms), from /proc; NaN where there is none. */
    cpuMs() {
      try {
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        return Number.NaN;
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs one measured child: `node --import peak-memory.mjs <args>` in `cwd`; resolves with its wall time, peak memory and output. */
async function measured(args, { cwd, env, okCodes = [0] }) {
  const rssFile = join(cwd, `.peak-${process.pid}-${Date.now()}.txt`);
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', PEAK, ...args], { cwd, env: { ...process.env, ...env, BENCH_PEAK_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-200_000)));
  const code = await new Promise((resolve) => child.once('exit', (exitCode, signal) => resolve(exitCode ?? signal)));
  const wallMs = performance.now() - started;
  const peakKb = Number(await readFile(rssFile, 'utf8').catch(() => 'NaN'));
  const cpuMs = Number(await readFile(`${rssFile}.cpu`, 'utf8').catch(() => 'NaN'));
  await rm(rssFile, { force: true });
  await rm(`${rssFile}.cpu`, { force: true });
  if (!okCodes.includes(code)) throw new Error(`${args.join(' ')} in ${cwd} exited ${code}:\n${output.slice(-4000)}`);
  return { wallMs, cpuMs, peakMb: peakKb / 1024, code, output };
}

async function lockSize(site) {
  return (await stat(join(site, 'articles.lock.json')).catch(() => ({ size: Number.NaN }))).size;
}

/** A new site of `count` keywords in `root`. */
async function makeSite(root, count) {
  const site = join(root, `site-${count}`);
  await rm(site, { recursive: true, force: true });
  await mkdir(site, { recursive: true });
  await writeFile(join(site, 'articles.yaml'), `# ${count} articles for the scale benchmark\narticles:\n${corpusKeywords(count).map((k) => `  - ${JSON.stringify(k)}`).join('\n')}\n`);
  return site;
}

/** The CLI's steps, then load() and check, which need the site the first part left: run one part at every size before the next. */
const PARTS = [
  ['sync', 'warm sync', 'plan', 'verify'],
  ['load(), no records', 'load(), records', 'check'],
];

/** The steps `only` on the site of `count` articles (made by the first part), into `steps`. */
async function stepsAt(count, site, steps, { env, concurrency, record, only, emulator }) {
  const cli = (command, extra = [], okCodes = [0]) => measured([CLI, command, ...extra], { cwd: site, env, okCodes });
  const runs = {
    // --timeout: the default 30 minutes ends the polling of a 100,000-article sync on a busy machine (the creates go on, the rest waits for the next run).
    sync: () => cli('sync', ['--concurrency', String(concurrency), '--budget', String(count), '--timeout', '12h']),
    'warm sync': () => cli('sync', ['--concurrency', String(concurrency), '--budget', String(count), '--timeout', '12h']),
    plan: () => cli('plan'),
    verify: () => cli('verify', [], [0, 4]),
    'load(), no records': () => measured([...STORE_LOAD_HEAP, STORE_LOAD, site], { cwd: site, env }),
    'load(), records': async () => {
      await rm(join(site, 'node_modules/.astro'), { recursive: true, force: true });
      return measured([...STORE_LOAD_HEAP, STORE_LOAD, site], { cwd: site, env });
    },
    check: () => cli('check', [], [0, 5]),
  };
  for (const step of STEPS.filter((name) => only.includes(name))) {
    console.error(`  scale: ${count.toLocaleString('en-US')} articles, ${step}…`);
    const emulatorBefore = emulator.cpuMs();
    const run = await runs[step]();
    const emulatorCpuMs = emulator.cpuMs() - emulatorBefore;
    const loadMs = step.startsWith('load()') ? JSON.parse(run.output.trim().split('\n').at(-1)).ms : undefined;
    steps[step] = { wallMs: run.wallMs, cpuMs: run.cpuMs, emulatorCpuMs, peakMb: run.peakMb, lockBytes: await lockSize(site), code: run.code, ...(loadMs === undefined ? {} : { loadMs }) };
    await record({ count, step, ...steps[step] });
  }
}

const s = (ms) => Math.round(ms / 100) / 10;
const mb = (value) => Math.round(value);
const r2 = (value) => Math.round(value * 100) / 100;

/** The scale figures: one result per size, then the ratios. */
export async function run() {
  const sizes = sizesFromEnv();
  const base = Number(process.env.BENCH_SCALE_BASE ?? 2500);
  const concurrency = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 8);
  const out = process.env.BENCH_SCALE_OUT;
  const record = async (line) => {
    if (out !== undefined) await appendFile(out, `${JSON.stringify({ at: new Date().toISOString(), ...line })}\n`);
  };
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-scale-'));
  const emulator = await startEmulatorCommand();
  const env = { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
  try {
    const bySize = new Map();
    const sites = new Map();
    const options = { env, concurrency, record, emulator };
    if (base > 0 && STEPS.includes('sync')) {
      const steps = {};
      await stepsAt(base, await makeSite(root, base), steps, { ...options, only: ['sync'] });
      await rm(join(root, `site-${base}`), { recursive: true, force: true });
      bySize.set('base', steps);
    }
    for (const size of sizes) {
      sites.set(size, await makeSite(root, size));
      bySize.set(size, {});
    }
    // Every size's sync, plan and verify first: the figures that need no pipeline run come in before the long ones.
    for (const only of PARTS) for (const size of sizes) await stepsAt(size, sites.get(size), bySize.get(size), { ...options, only });
    const results = sizes.map((size) => sizeResult(size, bySize.get(size)));
    results.push(ratioResult(sizes, bySize, base, bySize.get('base')?.sync));
    return results;
  } finally {
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
}

function sizeResult(size, steps) {
  const figures = [];
  for (const step of STEPS) {
    const m = steps[step];
    figures.push({ label: `${step}: wall time`, value: s(m.wallMs), unit: 's' });
    figures.push({ label: `${step}: CPU time (user + system)`, value: s(m.cpuMs), unit: 's' });
    if (step.includes('sync') && Number.isFinite(m.emulatorCpuMs)) figures.push({ label: `${step}: the emulator's CPU time meanwhile`, value: s(m.emulatorCpuMs), unit: 's' });
    if (m.loadMs !== undefined) figures.push({ label: `${step}: load() itself`, value: s(m.loadMs), unit: 's' });
    figures.push({ label: `${step}: peak memory`, value: mb(m.peakMb), unit: 'MB', target: `≤ ${MEMORY_TARGET_MB}`, ok: m.peakMb <= MEMORY_TARGET_MB });
  }
  if (steps.sync !== undefined) figures.push({ label: 'lock file after sync', value: r2(steps.sync.lockBytes / 1e6), unit: 'MB' });
  if (steps.check !== undefined && steps.plan !== undefined) {
    const checkRatio = steps.check.wallMs / steps.plan.wallMs;
    figures.push({ label: 'check / plan (site with records)', value: r2(checkRatio), unit: '×', target: `≤ ${CHECK_TARGET}`, ok: checkRatio <= CHECK_TARGET });
  }
  return {
    name: `scale, ${size.toLocaleString('en-US')} articles`,
    notes: [
      'each step a child process: the CLI (sync --concurrency 8, plan, verify, check) or bench/store-load.mjs (load() outside Astro); peak memory is its maxRSS',
      'sync from nothing against the emulator command (--speed instant --rate-limit 0); warm sync: the same command again, nothing to do',
      'load(), no records: every article through the pipeline and checks, records written (cover cards off); load(), records: again with no Astro cache (a cold store), store only',
    ],
    figures,
  };
}

function ratioResult(sizes, bySize, base, baseSync) {
  const [small, ...larger] = sizes;
  const figures = [];
  if (baseSync !== undefined && bySize.has(small)) {
    const ratio = bySize.get(small).sync.wallMs / baseSync.wallMs;
    const cpu = bySize.get(small).sync.cpuMs / baseSync.cpuMs;
    figures.push({ label: `sync from nothing, ${base.toLocaleString('en-US')} articles`, value: s(baseSync.wallMs), unit: 's' });
    figures.push({ label: `sync from nothing, ${small.toLocaleString('en-US')} / ${base.toLocaleString('en-US')}`, value: r2(ratio), unit: '×', target: `≤ ${SYNC_BASE_TARGET}`, ok: ratio <= SYNC_BASE_TARGET });
    figures.push({ label: `sync from nothing, ${small.toLocaleString('en-US')} / ${base.toLocaleString('en-US')}, CPU time`, value: r2(cpu), unit: '×' });
  }
  for (const size of larger) {
    const times = size / small;
    const target = LINEAR_TARGET * (times / 10);
    for (const step of STEPS) {
      const ratio = bySize.get(size)[step].wallMs / bySize.get(small)[step].wallMs;
      const cpu = bySize.get(size)[step].cpuMs / bySize.get(small)[step].cpuMs;
      figures.push({ label: `${step}, ${size.toLocaleString('en-US')} / ${small.toLocaleString('en-US')}`, value: r2(ratio), unit: '×', target: `≤ ${r2(target)}`, ok: ratio <= target });
      figures.push({ label: `${step}, ${size.toLocaleString('en-US')} / ${small.toLocaleString('en-US')}, CPU time`, value: r2(cpu), unit: '×' });
    }
    if (bySize.get(size).sync !== undefined) {
      const lockRatio = bySize.get(size).sync.lockBytes / bySize.get(small).sync.lockBytes;
      figures.push({ label: `lock file, ${size.toLocaleString('en-US')} / ${small.toLocaleString('en-US')}`, value: r2(lockRatio), unit: '×' });
    }
  }
  return { name: 'scale, ratios', notes: [`linear: ${LINEAR_TARGET}× for 10× the articles (10% to spare)`], figures };
}

runIfMain(import.meta.url, run);
