// Cover benchmark: what the generated cover cards cost per article, cold (each card drawn: satori lays it out, resvg writes the PNG) and warm (each card found in the cache).
//
// Run: npm run build && node bench/cover.mjs   (BENCH_COVER_CARDS to change the count, default 50)
//
// The cards go through the loader's own CardFiles (dist/cover/card-files.js) into an empty cache and
// public folder, as the first build of a site with that many articles without images draws them; the
// warm pass asks for the same cards again, as a build with a cold Astro data store but a committed
// articles.cache/ does. The first card also pays for loading satori, its layout engine, resvg and the fonts.

import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';

const COLD_TARGET_MS = 250;
const WARM_TARGET_MS = 5;

const TITLES = ['How to Brew Pour Over Coffee at Home', 'Pour Over Coffee Ratio: 1:16, and When to Change It', 'French Press vs Pour Over: Which One Suits Your Mornings', 'The Best Coffee Grinders for Every Budget, Tested for a Month'];

export async function run({ count = Number(process.env.BENCH_COVER_CARDS ?? 50) } = {}) {
  const { CardFiles } = await importDist('cover/card-files.js');
  const { cardSettings } = await importDist('cover/card-options.js');
  const dir = await mkdtemp(join(tmpdir(), 'aal-bench-cover-'));
  try {
    const cards = new CardFiles({ settings: cardSettings(true, 'https://brewnotes.example', undefined), cacheDir: join(dir, 'articles.cache'), publicDir: join(dir, 'public/_articles'), publicPath: '/_articles/' });
    const articles = Array.from({ length: count }, (_, i) => ({ slug: `article-${i}`, title: `${TITLES[i % TITLES.length]} (${i + 1})` }));
    const pass = async () => {
      const times = [];
      let drawn = 0;
      for (const { slug, title } of articles) {
        const started = performance.now();
        drawn += (await cards.card(slug, title)).drawn ? 1 : 0;
        times.push(performance.now() - started);
      }
      return { times, drawn };
    };
    const cold = await pass();
    const warm = await pass();
    const files = await readdir(cards.cacheDir);
    const bytes = (await Promise.all(files.map((name) => stat(join(cards.cacheDir, name))))).reduce((sum, file) => sum + file.size, 0);
    const sum = (values) => values.reduce((a, b) => a + b, 0);
    const coldRest = sum(cold.times.slice(1)) / Math.max(1, count - 1);
    const warmEach = sum(warm.times) / count;
    const round = (value) => Math.round(value * 10) / 10;
    return {
      name: 'cover',
      notes: [`${count} cards of 1200×630 (CardFiles from dist/, one process): cold draws each into an empty cache and copies it into the public folder; warm asks for the same cards again`, `cards drawn: ${cold.drawn} cold, ${warm.drawn} warm`],
      figures: [
        { label: 'cold: first card (loads satori, resvg and the fonts)', value: Math.round(cold.times[0]), unit: 'ms' },
        { label: 'cold: each further card', value: round(coldRest), unit: 'ms', target: `≤ ${COLD_TARGET_MS}`, ok: coldRest <= COLD_TARGET_MS },
        { label: `cold: ${count} cards in all`, value: Math.round(sum(cold.times)), unit: 'ms' },
        { label: 'warm: each card (from the cache)', value: round(warmEach), unit: 'ms', target: `≤ ${WARM_TARGET_MS}`, ok: warmEach <= WARM_TARGET_MS },
        { label: 'card file size (mean)', value: Math.round(bytes / files.length / 1024), unit: 'KB' },
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
