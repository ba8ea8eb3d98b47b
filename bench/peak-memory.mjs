// Preloaded into a measured child (`node --import bench/peak-memory.mjs …`): writes its peak memory (maxRSS, in KB) to BENCH_PEAK_FILE as it exits.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_PEAK_FILE;
if (file !== undefined) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
