// The benchmark runner: each benchmark in its own child process (same Node), one report with every figure beside its target.
//
// Run: npm run bench                      (all; needs `npm run build` first for dist/)
//      node bench/run.mjs --only memory   (one: import, pipeline, cold-generation, memory, warm-build, dev-start, incremental, images, cover, reprocessing, no-hangs, writer-overhead, scale)
//      node bench/run.mjs --json out.json (also write the raw results)
// Figures are printed, never asserted: the exit code is 0 unless a benchmark crashed.

import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatResults } from './report.mjs';

/** In report order. `module` is a bench/*.mjs file exporting `run()`. */
export const BENCHMARKS = [
  { name: 'import', module: 'import-cost.mjs' },
  { name: 'pipeline', module: 'pipeline.mjs' },
  { name: 'cold-generation', module: 'cold-generation.mjs' },
  { name: 'memory', module: 'memory.mjs' },
  { name: 'warm-build', module: 'warm-build.mjs' },
  { name: 'dev-start', module: 'dev-start.mjs' },
  { name: 'incremental', module: 'incremental.mjs' },
  { name: 'images', module: 'images.mjs' },
  { name: 'cover', module: 'cover.mjs' },
  { name: 'reprocessing', module: 'reprocessing.mjs' },
  { name: 'no-hangs', module: 'no-hangs.mjs' },
  { name: 'writer-overhead', module: 'writer-overhead.mjs' },
  { name: 'scale', module: 'scale.mjs' },
];

/** Runs one benchmark module's `run()` in a child process; resolves with its results (or the error). */
function runChild(benchmark) {
  return new Promise((resolve) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', benchmark.module], {
      execPath: process.execPath,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result;
    child.on('message', (message) => {
      result = message;
    });
    child.on('exit', (code, signal) => {
      // A module may report several results (e.g. one per scale).
      if (result?.error !== undefined) resolve([{ name: benchmark.name, figures: [], error: result.error }]);
      else if (result !== undefined) resolve([result.value].flat());
      else resolve([{ name: benchmark.name, figures: [], error: `the benchmark process exited (${signal ?? code}) without a result` }]);
    });
  });
}

async function child(module) {
  try {
    const { run } = await import(new URL(module, import.meta.url).href);
    const value = await run();
    process.send({ value }, () => process.exit(0));
  } catch (error) {
    process.send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1));
  }
}

async function main() {
  const { values } = parseArgs({
    options: { only: { type: 'string', multiple: true }, json: { type: 'string' }, child: { type: 'string' } },
    allowPositionals: false,
  });
  if (values.child !== undefined) return child(values.child);
  const wanted = values.only?.flatMap((name) => name.split(','));
  const unknown = (wanted ?? []).filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark ${unknown.join(', ')}; use one of ${BENCHMARKS.map((b) => b.name).join(', ')}.`);
    process.exitCode = 2;
    return;
  }
  const loadAtStart = loadavg();
  const selected = BENCHMARKS.filter((b) => wanted === undefined || wanted.includes(b.name));
  const results = [];
  for (const benchmark of selected) {
    const started = Date.now();
    console.error(`… ${benchmark.name}`);
    const reported = await runChild(benchmark);
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const failed = reported.some((result) => result.error !== undefined);
    console.error(`  ${benchmark.name}: ${failed ? 'FAILED' : 'done'} in ${seconds} s`);
    for (const result of reported) results.push({ ...result, seconds });
  }
  const load = (values) => values.map((value) => value.toFixed(2)).join(' ');
  console.log(`\nBenchmarks (Node ${process.versions.node}, ${new Date().toISOString()}, ${availableParallelism()} cores; load average at start ${load(loadAtStart)}, at end ${load(loadavg())})\n`);
  console.log(formatResults(results));
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(results, null, 2)}\n`);
  if (results.some((r) => r.error !== undefined)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
