import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files, longest first (seconds in a whole-suite run on the 2-core machine, 2026-11-27, workers shared). Vitest orders
 * files by their last durations, which a fresh clone or CI does not have: it then starts the
 * largest files first, and the fault campaign (a small file that runs for two minutes) came
 * second to last, leaving one worker alone with it at the end. A hint only: a file missing here
 * just runs in Vitest's order.
 */
const LONGEST_FIRST = [
  'test/autopilot/workflow-e2e.test.ts', // 101 alone, 218 beside 13 other files (2026-11-28; not yet measured in a whole-suite run): six workflow runs and kill rounds, each a clone, npx and autopilot waiting on the emulator
  'test/faults/campaign.test.ts', // 76.7 (kill -9 rounds four at a time; 119 one after another)
  'test/loader/build.test.ts', // 40.7
  'test/quickstart/readme-quickstart.test.ts', // 38.0 (npm install of the packed package)
  'test/loader/cold-build.test.ts', // 36.0
  'test/integration/toolbar-spending-rules.test.ts', // 31.4
  'test/loader/site-workflow.test.ts', // 31.0
  'test/loader/dev.test.ts', // 27.7
  'test/integration/build.test.ts', // 27.1
  'test/loader/quality.test.ts', // 27.0
  'test/loader/review-gate.test.ts', // 25.1
  'test/integration/toolbar-actions.test.ts', // 23.4
  'test/sync/crash.test.ts', // 22.7
  'test/loader/calendar.test.ts', // 20.6
  'test/integration/toolbar.test.ts', // 20.4
  'test/loader/offline.test.ts', // 18.4
  'test/manifest/bad-input-corpus.test.ts', // 15.8 (127 when each case was two child processes; now in-process, a sample through the bin)
  'test/cli/terminal.test.ts', // 15.2
  'test/integration/dev-shutdown.test.ts', // 14.3
  'test/cli/bad-input-corpus.test.ts', // 14.1 (90 before, likewise)
  'test/integration/verbose-build.test.ts', // 13.4
  'test/loader/languages-build.test.ts', // 12.5
  'test/integration/playground-writer.test.ts', // 12.1
  // Before playground-mobile.test.ts: it makes the build that file reads (test/integration/playground-site.ts).
  'test/integration/playground.test.ts', // 7.4 (and the shared build)
  'test/integration/playground-mobile.test.ts', // 11.6 (after playground.test.ts, whose build it reads)
  'test/sync/lock-file.test.ts', // 10.7
  'test/loader/languages-site.test.ts', // 10.5
  'test/integration/dev-emulator.test.ts', // 9.9
  'test/cli/sync.test.ts', // 9.1 (24 when every run was a child process)
  'test/loader/pipeline-pool.test.ts', // 7.9
];

/**
 * Files that start child processes (the CLI, `astro build` / `astro dev`, Chromium, a forked sync) or
 * share a build: they run first, the longest first. Every other file runs in-process only, after
 * them. Files of both kinds share their worker with the next file (`isolate: false`): a fresh worker
 * costs about a second of CPU to start and load its modules, and a file of the first kind several
 * (the emulator, the harnesses, the CLI's main): 591 s of CPU for the whole suite against 668 s when
 * each such file had a fresh worker. A file that shares a worker leaves process.env, the working
 * folder, timers and globals as it found them (afterEach, afterAll; in-process-cli.ts puts back
 * what a run changed), and stops every server and child it started.
 */
const STARTS_CHILDREN = [
  'test/cli/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/package/**/*.test.ts',
  'test/quickstart/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/loader/{build,cold-build,dev,offline,pipeline-pool,site-workflow}.test.ts',
  'test/sync/{concurrent,crash,lock-file,process-lock}.test.ts',
  'test/manifest/{bad-input-corpus,load}.test.ts',
  'test/api/client-unreachable.test.ts',
  'test/emulator/cli.test.ts',
  'test/pipeline/guide-example.test.ts',
  'test/autopilot/run-branch.test.ts', // git, through test/autopilot/git-sandbox.ts
];

/** What marks a file that starts children, for files the list above does not name (a new file is safe by default). */
const CHILD_MARKS = /child_process|astro-site|cli-harness|shared-build|child-output|playwright|\bspawn\(|\bfork\(|execFile/;

/** The list above, and every other test file whose text shows it starts children. */
function startsChildren(): string[] {
  const found = readdirSync('test', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => join('test', file).split('\\').join('/'))
    .filter((file) => CHILD_MARKS.test(readFileSync(file, 'utf8')));
  return [...new Set([...STARTS_CHILDREN, ...found])];
}

const CHILDREN = startsChildren();

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // In-process files last and together, so a worker passes from one to the next without restarting.
    const rank = (file: TestSpecification): number => {
      if (file.project.name === IN_PROCESS) return LONGEST_FIRST.length + 1;
      const index = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId).split('\\').join('/'));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return sorted.map((file, order) => ({ file, order, rank: rank(file) })).sort((a, b) => a.rank - b.rank || a.order - b.order).map(({ file }) => file);
  }
}

const IN_PROCESS = 'in-process';

export default defineConfig({
  test: {
    pool: 'forks',
    // Most files wait on child processes (astro build, the CLI): two at once even on 2 cores
    // (the whole suite: 647 s against 1,016 s one file at a time, all passing, on the 2-core machine;
    // 442 s since every harness shares one dist/ build and the CLI loads its client only when used;
    // 472 s with the bad-input corpora run in-process, and 486 s with three at once then: CPU-bound;
    // 407 s with most CLI runs in-process and the test sites polling their emulator every 20 ms;
    // 364 s with files that start children sharing their workers too).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Secrets must never land in snapshots: snapshot files are reviewed like source.
    snapshotFormat: { printBasicPrototype: false },
    projects: [
      {
        extends: true,
        test: {
          name: 'children',
          include: CHILDREN,
          // Shared workers, as the in-process files' (see above).
          isolate: false,
          // A folder per run where files share what they would each build the same (test/shared-build.ts).
          globalSetup: ['test/run-scope.ts'],
        },
      },
      { extends: true, test: { name: IN_PROCESS, include: ['test/**/*.test.ts'], exclude: CHILDREN, isolate: false } },
    ],
  },
});
