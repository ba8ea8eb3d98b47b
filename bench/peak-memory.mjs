// Preloaded into a measured child (`node --import bench/peak-memory.mjs …`): writes its peak memory (maxRSS, in KB) to BENCH_PEAK_FILE, and its CPU time (user + system, in ms) to that file + ".cpu", as it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_FILE;
if (file !== undefined) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, String(usage.maxRSS));
    // CPU time follows the work, where wall time on a shared machine also follows the other jobs.
    writeFileSync(`${file}.cpu`, String(Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)));
  });
}
