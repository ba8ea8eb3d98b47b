// Cold-generation benchmark: 200 new articles through syncArticles vs the spec's example client, same emulator seed, same run.
//
// Run: npm run build && node bench/cold-generation.mjs
//      (BENCH_COLD_SCALES=0.05,1  BENCH_COLD_ARTICLES=200  BENCH_COLD_CONCURRENCY=<creates in flight>)
// As a module: `const { name, figures } = await run()` for bench/run.mjs.
//
// Writing times follow a spread of 1–20 s per article (uniform, fixed per keyword by a hash),
// scaled by each of BENCH_COLD_SCALES (default 0.05 → 50 ms–1 s, and 1). Every duration of the
// protocol is scaled the same way: the engine's poll timing (its defaults × scale) and the example
// client's 5 s. What does not scale (a durable lock write per create, HTTP round trips) weighs 20×
// more at × 0.05 than in use, hence the × 1 run.
//
// Each scale runs twice: without queue delay, and with the service queueing each article 0–4 s × scale
// (uniform, seeded) before writing it (BENCH_COLD_QUEUE=0 or 1 runs only one of them). With a queue
// delay the slowest article's duration is not known in advance, so the ideal is the last finish the
// service recorded (measured from the start of the run, so it includes the create phase) plus one poll interval.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';
import { startEmulatorProcess, writingTimeOf } from './emulator-process.mjs';

const TARGET_WALL_RATIO = 1.15;
const TARGET_REQUEST_SHARE = 0.5;
/** The engine's documented poll defaults (src/sync/poll-schedule.ts), scaled with everything else. */
const ENGINE_POLL_DEFAULTS = { minMs: 1_000, maxMs: 30_000, initialMs: 3_000 };
const EXAMPLE_CLIENT_INTERVAL_MS = 5_000;
const SEED = 'cold-generation';
/** The queue-delay variant: each article waits 0–4 s (× scale) in the service's queue before writing starts. */
const MAX_QUEUE_DELAY_MS = 4_000;

export function benchKeywords(count) {
  const subjects = ['espresso', 'sourdough', 'houseplant', 'bicycle', 'budget', 'garden', 'camera', 'running', 'kitchen', 'guitar'];
  const angles = ['guide for beginners', 'mistakes to avoid', 'buying checklist', 'weekly routine', 'tools compared'];
  return Array.from({ length: count }, (_, i) => `${subjects[i % subjects.length]} ${angles[Math.floor(i / subjects.length) % angles.length]} ${i}`);
}

/** Both emulators: same seed, same per-keyword writing times, every article written at once (workers default to Infinity), no rate limit. */
function startBenchEmulator(scale, queued) {
  return startEmulatorProcess(
    { seed: SEED, rateLimit: false, timing: { queueDelayMs: queued ? { minMs: 0, maxMs: MAX_QUEUE_DELAY_MS * scale } : 0 } },
    { seed: SEED, scale, minMs: 1_000, maxMs: 20_000 },
  );
}

function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Gaps between consecutive status polls of the same article, from an emulator's request log. */
function pollGaps(requests) {
  const last = new Map();
  const gaps = [];
  for (const entry of requests) {
    if (entry.route !== 'getArticle') continue;
    const before = last.get(entry.path);
    if (before !== undefined) gaps.push(entry.at - before);
    last.set(entry.path, entry.at);
  }
  return gaps;
}

function countRoutes(requests) {
  return {
    requests: requests.length,
    creates: requests.filter((r) => r.route === 'createArticle').length,
    polls: requests.filter((r) => r.route === 'getArticle').length,
  };
}

async function runEngine(keywords, scale, concurrency, queued) {
  const [sync, api, manifest] = await Promise.all([importDist('sync/index.js'), importDist('api/index.js'), importDist('manifest/index.js')]);
  const emulator = await startBenchEmulator(scale, queued);
  const dir = await mkdtemp(join(tmpdir(), 'aal-bench-cold-'));
  const client = api.createArticleClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, idempotentCreates: true });
  const { specs } = manifest.resolveInlineManifest({ articles: keywords }, 'bench/cold-generation.mjs');
  const poll = {
    minMs: ENGINE_POLL_DEFAULTS.minMs * scale,
    maxMs: ENGINE_POLL_DEFAULTS.maxMs * scale,
    initialMs: ENGINE_POLL_DEFAULTS.initialMs * scale,
  };
  try {
    let lastCreatedAt = 0;
    const started = Date.now();
    const result = await sync.syncArticles({
      specs,
      lockFile: join(dir, 'articles.lock.json'),
      client,
      budget: keywords.length,
      idempotentCreates: true,
      poll,
      ...(concurrency === undefined ? {} : { concurrency }),
      onEvent: (event) => {
        if (event.type === 'created') lastCreatedAt = Date.now();
      },
    });
    const wallMs = Date.now() - started;
    const notFinished = result.articles.filter((a) => a.outcome !== 'finished').length;
    if (notFinished > 0) throw new Error(`cold generation: ${notFinished} articles did not finish`);
    const report = await emulator.report();
    return {
      wallMs,
      createPhaseMs: lastCreatedAt - started,
      lastFinishMs: report.lastFinishAt - started,
      ...countRoutes(report.requests),
      pollGaps: pollGaps(report.requests),
      poll,
      creations: report.creations,
      duplicates: report.duplicates,
    };
  } finally {
    await client.close();
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The spec's example client: "create, then poll the status route repeatedly (every 5 seconds)".
 * Creates one at a time; each article is polled at once and then on its fixed interval.
 */
async function runExampleClient(keywords, scale, queued) {
  const emulator = await startBenchEmulator(scale, queued);
  const intervalMs = EXAMPLE_CLIENT_INTERVAL_MS * scale;
  const headers = { Authorization: `Bearer ${emulator.apiKey}`, 'Content-Type': 'application/json' };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const waitFor = async (articleId) => {
    for (;;) {
      const record = await (await fetch(`${emulator.url}/api/articles/${articleId}`, { headers })).json();
      if (record.status === 'finished' || record.status === 'failed') return record.status;
      await sleep(intervalMs);
    }
  };
  try {
    const started = Date.now();
    const waits = [];
    for (const keyword of keywords) {
      const answer = await fetch(`${emulator.url}/api/articles/`, { method: 'POST', headers, body: JSON.stringify({ targetKeyword: keyword }) });
      const { articleId } = await answer.json();
      waits.push(waitFor(articleId));
    }
    const statuses = await Promise.all(waits);
    const wallMs = Date.now() - started;
    if (statuses.some((status) => status !== 'finished')) throw new Error('example client: an article did not finish');
    const report = await emulator.report();
    return { wallMs, ...countRoutes(report.requests), intervalMs };
  } finally {
    await emulator.stop();
  }
}

/** One scale: both clients against their own emulator, figures against the targets. */
async function runScale(articles, scale, concurrency, queued) {
  const keywords = benchKeywords(articles);
  const writing = keywords.map((keyword) => writingTimeOf(keyword, { seed: SEED, scale, minMs: 1_000, maxMs: 20_000 }));
  const slowestMs = Math.max(...writing);

  const engine = await runEngine(keywords, scale, concurrency, queued);
  const example = await runExampleClient(keywords, scale, queued);

  // "One poll interval": the engine's shortest gap between two polls of one article at this scale
  // (its minMs). The measured median gap is reported beside it.
  const pollIntervalMs = engine.poll.minMs;
  const idealMs = (queued ? engine.lastFinishMs : slowestMs) + pollIntervalMs;
  const wallRatio = engine.wallMs / idealMs;
  const perArticle = engine.requests / articles;
  const examplePerArticle = example.requests / articles;
  const requestShare = perArticle / examplePerArticle;
  const ms = (value) => Math.round(value);
  return {
    name: `cold generation, timing × ${scale}${queued ? `, queue delay 0–${MAX_QUEUE_DELAY_MS * scale} ms` : ''}`,
    notes: [
      `${articles} articles, writing time uniform 1–20 s × ${scale} (${ms(Math.min(...writing))}–${ms(slowestMs)} ms), workers ∞, rate limit off, ${queued ? `queue delay uniform 0–${MAX_QUEUE_DELAY_MS * scale} ms (seeded)` : 'queue delay 0'}, emulator in its own process`,
      `engine: syncArticles with the real client, concurrency ${concurrency ?? 'default'}, poll timing = its defaults × ${scale}: minMs ${engine.poll.minMs}, initialMs ${engine.poll.initialMs}, maxMs ${engine.poll.maxMs}`,
      queued
        ? `ideal = the last finish on the service's clock (from the start of the run, create phase included) + one poll interval, the engine's minMs at this scale (${pollIntervalMs} ms)`
        : `ideal = slowest article + one poll interval, the interval being the engine's minMs at this scale (${pollIntervalMs} ms)`,
      `example client: sequential creates, each article polled at once and then every ${example.intervalMs} ms (5 s × ${scale}), against a second emulator with the same seed`,
    ],
    figures: [
      { label: 'wall time', value: ms(engine.wallMs), unit: 'ms' },
      { label: queued ? 'ideal (last finish + one poll interval)' : 'ideal (slowest article + one poll interval)', value: ms(idealMs), unit: 'ms' },
      { label: 'wall / ideal', value: round2(wallRatio), unit: '×', target: `≤ ${TARGET_WALL_RATIO}`, ok: wallRatio <= TARGET_WALL_RATIO },
      { label: '  last create answered at', value: ms(engine.createPhaseMs), unit: 'ms' },
      { label: '  last article finished at (service clock)', value: ms(engine.lastFinishMs), unit: 'ms' },
      { label: '  median gap between polls of one article', value: ms(median(engine.pollGaps)), unit: 'ms' },
      { label: 'requests per article (engine)', value: round2(perArticle), unit: 'req' },
      { label: '  creates / status polls', value: `${engine.creates} / ${engine.polls}`, unit: '' },
      { label: 'requests per article (example client)', value: round2(examplePerArticle), unit: 'req' },
      { label: '  example client wall time', value: ms(example.wallMs), unit: 'ms' },
      { label: 'requests engine / example client', value: round2(requestShare), unit: '×', target: `≤ ${TARGET_REQUEST_SHARE}`, ok: requestShare <= TARGET_REQUEST_SHARE },
      { label: 'articles billed (ledger), duplicates', value: `${engine.creations}, ${engine.duplicates}`, unit: '', target: `= ${articles}, 0`, ok: engine.creations === articles && engine.duplicates === 0 },
    ],
  };
}

/** One result per scale: the brief's ×0.05 (fast) and ×1 (the real 1–20 s, where fixed costs weigh what they weigh in use). */
export async function run({
  articles = Number(process.env.BENCH_COLD_ARTICLES ?? 200),
  scales = (process.env.BENCH_COLD_SCALES ?? '0.05,1').split(',').map(Number),
  // Creates in flight; default: the engine's own default.
  concurrency = process.env.BENCH_COLD_CONCURRENCY === undefined ? undefined : Number(process.env.BENCH_COLD_CONCURRENCY),
  queueVariants = (process.env.BENCH_COLD_QUEUE ?? '0,1').split(',').map((v) => v.trim() === '1'),
} = {}) {
  const results = [];
  for (const scale of scales) for (const queued of queueVariants) results.push(await runScale(articles, scale, concurrency, queued));
  return results;
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

runIfMain(import.meta.url, run);
