import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Secrets must never land in snapshots: snapshot files are reviewed like source.
    snapshotFormat: { printBasicPrototype: false },
  },
});
