// Cover benchmark: what the generated cover cards cost per article, cold (each card drawn: @napi-rs/canvas sets the text and writes the PNG) and warm (each card found in the cache);
// the first card of each script in a fresh process; and the bytes the card stack adds to an install.
//
// Run: npm run build && node bench/cover.mjs   (BENCH_COVER_CARDS to change the count, default 50)
//
// The cards go through the loader's own CardFiles (dist/cover/card-files.js) into an empty cache and
// public folder, as the first build of a site with that many articles without images draws them; the
// warm pass asks for the same cards again, as a build with a cold Astro data store but a committed
// articles.cache/ does. The first card also pays for loading the canvas and the fonts.

import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { distUrl, importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';

const COLD_TARGET_MS = 250;
const WARM_TARGET_MS = 5;
/** The card stack every install paid before (satori 0.63, @resvg/resvg-js 2.6 and @fontsource/inter 5.3 with their dependencies, installed alone: 43.0 MB of files, 2026-11-28). */
const INSTALL_BEFORE_MB = 43.0;
const NODE_MODULES = new URL('../node_modules/', import.meta.url);
/** The indexed-PNG encoder a card is written with (card-drawing.ts), and its dependencies. */
const PNG_PACKAGES = ['fast-png', 'fflate', 'iobuffer'];

/** One title per script of the locale table, each drawn first in a fresh process: the canvas and that script's fonts load. */
const SCRIPT_TITLES = [
  ['Latin', 'en', 'How to Brew Pour Over Coffee at Home'],
  ['Cyrillic', 'ru', 'Как сварить кофе в турке дома'],
  ['Arabic', 'ar', 'كيف تحضر القهوة بالتقطير في المنزل'],
  ['Hebrew', 'he', 'איך להכין קפה טורקי בבית'],
  ['Devanagari', 'hi', 'घर पर कॉफ़ी बनाने का आसान तरीका'],
  ['Bengali', 'bn', 'বাড়িতে কফি বানানোর সহজ উপায়'],
  ['Thai', 'th', 'วิธีชงกาแฟดริปที่บ้านสำหรับมือใหม่'],
  ['Japanese', 'ja', 'わかりやすいハンドドリップコーヒー入門'],
  ['Simplified Chinese', 'zh-CN', '如何在家里冲泡手冲咖啡'],
  ['Traditional Chinese', 'zh-TW', '如何在家裡沖泡手沖咖啡'],
  ['Korean', 'ko', '집에서 핸드드립 커피 내리는 법'],
  ['emoji', 'en', 'Coffee ☕ at home 🍰'],
];

/** In a child: the first card of `title` (loading the canvas and its fonts), then the mean of five more of that script. */
const CHILD = `
const [title, locale, drawing, fonts] = process.argv.slice(1);
const started = performance.now();
const { CardFonts } = await import(fonts);
const { drawCard } = await import(drawing);
const set = new CardFonts();
const draw = (text) => drawCard({ title: set.text(text, locale), siteName: set.text('brewnotes.example'), fallback: set.text('x'), locale, color: '#1e3a8a', width: 1200, height: 630 });
await draw(title);
const first = performance.now() - started;
const again = performance.now();
for (let i = 1; i <= 5; i += 1) await draw(title + ' ' + i);
console.log(JSON.stringify({ first, each: (performance.now() - again) / 5 }));
`;

async function scriptFigures() {
  const figures = [];
  for (const [script, locale, title] of SCRIPT_TITLES) {
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', CHILD, title, locale, distUrl('cover/card-drawing.js'), distUrl('cover/card-fonts.js')]);
    const { first, each } = JSON.parse(stdout.trim().split('\n').pop());
    figures.push({ label: `${script}: first card in a fresh process`, value: Math.round(first), unit: 'ms' }, { label: `${script}: each further card`, value: Math.round(each * 10) / 10, unit: 'ms' });
  }
  return figures;
}

/** Bytes of the files under `dir` (0 when it is not there). */
async function bytesOf(dir) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(entries.map((entry) => (entry.isDirectory() ? bytesOf(join(dir, entry.name)) : stat(join(dir, entry.name)).then((file) => file.size))));
  return sizes.reduce((a, b) => a + b, 0);
}

/** What the card stack installs: the canvas (its platform's binary package too), the PNG encoder and the fonts the loader depends on; each optional font apart. */
async function installFigures() {
  const { FONT_PACKAGES } = await importDist('cover/card-fonts.js');
  const base = new URL('./', NODE_MODULES).pathname;
  const canvasPackages = (await readdir(join(base, '@napi-rs'))).map((name) => `@napi-rs/${name}`);
  const required = [...canvasPackages, ...PNG_PACKAGES, ...FONT_PACKAGES.filter((pkg) => pkg.install === 'dependency').map((pkg) => pkg.name)];
  const mb = (bytes) => Math.round(bytes / 1e5) / 10;
  const total = mb((await Promise.all(required.map((name) => bytesOf(join(base, name))))).reduce((a, b) => a + b, 0));
  const figures = [{ label: `install: the card stack every site installs (${[...canvasPackages, ...PNG_PACKAGES].join(', ')} and ${required.length - canvasPackages.length - PNG_PACKAGES.length} font packages)`, value: total, unit: 'MB', target: `≤ ${INSTALL_BEFORE_MB}`, ok: total <= INSTALL_BEFORE_MB }];
  for (const pkg of FONT_PACKAGES.filter((candidate) => candidate.install === 'optional')) figures.push({ label: `install: optional ${pkg.name} (${pkg.label})`, value: mb(await bytesOf(join(base, pkg.name))), unit: 'MB' });
  return figures;
}

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
        { label: 'cold: first card (loads the canvas and the fonts)', value: Math.round(cold.times[0]), unit: 'ms' },
        { label: 'cold: each further card', value: round(coldRest), unit: 'ms', target: `≤ ${COLD_TARGET_MS}`, ok: coldRest <= COLD_TARGET_MS },
        { label: `cold: ${count} cards in all`, value: Math.round(sum(cold.times)), unit: 'ms' },
        { label: 'warm: each card (from the cache)', value: round(warmEach), unit: 'ms', target: `≤ ${WARM_TARGET_MS}`, ok: warmEach <= WARM_TARGET_MS },
        { label: 'card file size (mean)', value: Math.round(bytes / files.length / 1024), unit: 'KB' },
        ...(await scriptFigures()),
        ...(await installFigures()),
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
