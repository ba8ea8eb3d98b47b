// Images through astro:assets: `astro build` of 50 articles with 4 local images each (200 images, 1200×800 PNG), with
// optimizeImages on (WebP, two widths per image: 400 files written) and off (the files served as they are).
//
// Run: npm run build && node bench/images.mjs
//
// Each build starts with no Astro cache (node_modules/.astro, where Astro also keeps optimized images) and no dist/;
// articles.cache/processed/ is kept from a first build of each setting, so the pipeline's own cost is not counted.
// The cost per image is the difference of the medians over 200.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCachedCorpus } from './article-corpus.mjs';
import { runAstroBuild } from './astro-child.mjs';
import { installModules } from './warm-sites.mjs';
import { importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const ARTICLES = 50;
const PER_ARTICLE = 4;
const ROUNDS = 3;

async function makeSite(root) {
  await cp(join(REPO, 'bench/fixtures/warm-site'), root, { recursive: true });
  const config = join(root, 'src/content.config.mjs');
  const source = await readFile(join(root, 'src/content.article-loader.mjs'), 'utf8');
  await writeFile(config, source.replace("manifest: './articles.yaml'", "manifest: './articles.yaml', downloadImages: true, optimizeImages: process.env.AAL_OPTIMIZE !== '0'"));
  for (const variant of ['article-loader', 'glob', 'bare']) await rm(join(root, `src/content.${variant}.mjs`));
  await installModules(root);
}

/** The article's own images swapped for 4 files in public/_articles/. */
function withLocalImages(html, index) {
  const images = Array.from({ length: PER_ARTICLE }, (_, i) => `<p><img src="/_articles/a${index}-${i}.png" alt="Figure ${i + 1} of article ${index}"></p>`).join('\n');
  return `${html.replace(/<img\b[^>]*>/g, '')}\n${images}\n`;
}

async function build(root, env, optimize) {
  await rm(join(root, 'node_modules/.astro'), { recursive: true, force: true });
  await rm(join(root, '.astro'), { recursive: true, force: true });
  await rm(join(root, 'dist'), { recursive: true, force: true });
  const { code, output, wallMs } = await runAstroBuild(root, { ...env, AAL_OPTIMIZE: optimize ? '1' : '0' });
  if (code !== 0) throw new Error(`astro build failed (${code}):\n${output.slice(-3000)}`);
  const page = await readFile(join(root, 'dist/articles', (await readdir(join(root, 'dist/articles')))[0], 'index.html'), 'utf8');
  return { wallMs, webp: (page.match(/src="\/_astro\/[^"]+\.webp"/g) ?? []).length, srcset: page.includes('srcset=') };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run() {
  const [{ startEmulator }, { renderPng }] = await Promise.all([importDist('emulator/index.js'), importDist('emulator/png-image.js')]);
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-images-'));
  const emulator = await startEmulator({ rateLimit: false });
  try {
    await makeSite(root);
    await writeCachedCorpus({ dir: root, count: ARTICLES, rewrite: withLocalImages });
    const images = join(root, 'public/_articles');
    await mkdir(images, { recursive: true });
    for (let a = 0; a < ARTICLES; a++) for (let i = 0; i < PER_ARTICLE; i++) await writeFile(join(images, `a${a}-${i}.png`), renderPng(1200, 800, `bench-${a}-${i}`));
    const env = { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
    const runs = { on: [], off: [] };
    for (const optimize of [true, false]) await build(root, env, optimize); // each setting's processed records
    for (let round = 0; round < ROUNDS; round++) {
      for (const optimize of round % 2 === 0 ? [true, false] : [false, true]) {
        runs[optimize ? 'on' : 'off'].push(await build(root, env, optimize));
      }
    }
    const total = ARTICLES * PER_ARTICLE;
    const on = median(runs.on.map((b) => b.wallMs));
    const off = median(runs.off.map((b) => b.wallMs));
    const s = (ms) => Math.round(ms / 100) / 10;
    return {
      name: 'images',
      notes: [
        `${ARTICLES} articles × ${PER_ARTICLE} images = ${total} images of 1200×800 (PNG, public/_articles/); median of ${ROUNDS}; no Astro cache before each build`,
        `optimizeImages on: ${runs.on[0].webp} WebP images on an article page, srcset ${runs.on[0].srcset ? 'present' : 'missing'}; off: ${runs.off[0].webp} WebP, srcset ${runs.off[0].srcset ? 'present' : 'absent'}`,
        'Astro caches optimized images in node_modules/.astro/assets/: a CI that keeps that folder pays this once per image',
      ],
      figures: [
        { label: 'build, optimizeImages: true', value: s(on), unit: 's' },
        { label: 'build, optimizeImages: false', value: s(off), unit: 's' },
        { label: 'cost per image (WebP at 2 widths)', value: Math.round((on - off) / total), unit: 'ms' },
      ],
    };
  } finally {
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
