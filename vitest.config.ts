import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files, longest first (seconds on the 2-core machine, whole suite run). Vitest orders
 * files by their last durations, which a fresh clone or CI does not have: it then starts the
 * largest files first, and the fault campaign (a small file that runs for two minutes) came
 * second to last, leaving one worker alone with it at the end. A hint only: a file missing here
 * just runs in Vitest's order.
 */
const LONGEST_FIRST = [
  'test/faults/campaign.test.ts', // 119
  'test/loader/build.test.ts', // 65
  'test/loader/cold-build.test.ts', // 60
  'test/quickstart/readme-quickstart.test.ts', // 53
  'test/loader/site-workflow.test.ts', // 51
  'test/manifest/bad-input-corpus.test.ts', // 46
  'test/cli/bad-input-corpus.test.ts', // 41
  'test/integration/build.test.ts', // 29
  'test/loader/offline.test.ts', // 25
  'test/cli/sync.test.ts', // 24
  'test/sync/crash.test.ts', // 22
  'test/integration/toolbar.test.ts', // 21
  // Early, so the build it shares with playground-mobile.test.ts is made before that file asks for it (test/integration/playground-site.ts).
  'test/integration/playground.test.ts', // 22 alone
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId).split('\\').join('/'));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return sorted.map((file, order) => ({ file, order, rank: rank(file) })).sort((a, b) => a.rank - b.rank || a.order - b.order).map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A folder per run where files share what they would each build the same (test/shared-build.ts).
    globalSetup: ['test/run-scope.ts'],
    pool: 'forks',
    // Most files wait on child processes (astro build, the CLI): two at once even on 2 cores
    // (the whole suite: 647 s against 1,016 s one file at a time, all passing, on the 2-core machine;
    // 442 s since every harness shares one dist/ build and the CLI loads its client only when used).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Secrets must never land in snapshots: snapshot files are reviewed like source.
    snapshotFormat: { printBasicPrototype: false },
  },
});
