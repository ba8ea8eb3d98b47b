// Incremental builds: a 1,000-article site with Astro's experimental.incrementalBuild and entry.digest as each page's cacheKey.
//
// Run: npm run build && node bench/incremental.mjs   (BENCH_INCREMENTAL_ARTICLES to change the size)
//
// The warm-build fixture site (articleLoader variant, every article in the lock file, the cache and articles.cache/processed/),
// with incrementalBuild on and `cacheKey: entry.digest` in getStaticPaths. Measured, each the median of 3:
// - a full build: no incremental cache (node_modules/.astro removed), every page rendered;
// - after one article changed (a hand edit in articles.edits/): only its page is rendered, the others restored.
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
const ROUNDS = 3;

async function makeSite(root) {
  await cp(join(REPO, 'bench/fixtures/warm-site'), root, { recursive: true });
  await cp(join(root, 'src/content.article-loader.mjs'), join(root, 'src/content.config.mjs'));
  for (const variant of ['article-loader', 'glob', 'bare']) await rm(join(root, `src/content.${variant}.mjs`));
  const config = join(root, 'astro.config.mjs');
  await writeFile(config, (await readFile(config, 'utf8')).replace("telemetry: false,", "telemetry: false,\n  experimental: { incrementalBuild: true },"));
  const page = join(root, 'src/pages/articles/[slug].astro');
  await writeFile(page, (await readFile(page, 'utf8')).replace('props: { entry } }', 'props: { entry }, cacheKey: entry.digest }'));
  await installModules(root);
}

async function build(root, env, { fresh }) {
  if (fresh) await rm(join(root, 'node_modules/.astro'), { recursive: true, force: true });
  await rm(join(root, 'dist'), { recursive: true, force: true });
  const { code, output, wallMs } = await runAstroBuild(root, env);
  if (code !== 0) throw new Error(`astro build failed (${code}):\n${output.slice(-3000)}`);
  const lines = output.split('\n').filter((line) => /\/articles\/[^/]+\/index\.html/.test(line));
  return { wallMs, rendered: lines.filter((line) => /\(\+\d/.test(line)).length, reused: lines.filter((line) => /\((restored|cached)\)/.test(line)).length };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run({ articles = Number(process.env.BENCH_INCREMENTAL_ARTICLES ?? 1_000) } = {}) {
  const { startEmulator } = await importDist('emulator/index.js');
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-incremental-'));
  const emulator = await startEmulator({ rateLimit: false });
  try {
    await makeSite(root);
    const { lockFile, specs } = await writeCachedCorpus({ dir: root, count: articles });
    const env = { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey };
    await build(root, env, { fresh: true }); // writes articles.cache/processed/, as the site's last commit did
    const lock = JSON.parse(await readFile(lockFile, 'utf8'));
    const full = [];
    const one = [];
    for (let round = 0; round < ROUNDS; round++) {
      full.push(await build(root, env, { fresh: true }));
      const slug = specs[(round * 97) % specs.length].slug;
      await mkdir(join(root, 'articles.edits'), { recursive: true });
      await writeFile(join(root, 'articles.edits', `${slug}.html`), `<!-- astro-article-loader: hand edit of "${slug}" (article ${lock.articles[slug].articleId}). -->\n<h1>Edited</h1><p>One sentence fixed by hand in round ${round}.</p>`);
      one.push(await build(root, env, { fresh: false }));
    }
    const fullMs = median(full.map((b) => b.wallMs));
    const oneMs = median(one.map((b) => b.wallMs));
    const s = (ms) => Math.round(ms / 100) / 10;
    return {
      name: 'incremental build',
      notes: [
        `${articles} articles; Astro's experimental.incrementalBuild (7.2+) with cacheKey: entry.digest; median of ${ROUNDS}`,
        'full: no incremental cache (node_modules/.astro removed), every page rendered; one changed: after a hand edit of one article',
        `pages rendered / restored after one change: ${median(one.map((b) => b.rendered))} / ${median(one.map((b) => b.reused))}; in a full build: ${median(full.map((b) => b.rendered))} / ${median(full.map((b) => b.reused))}`,
      ],
      figures: [
        { label: 'build, full', value: s(fullMs), unit: 's' },
        { label: 'build, one article changed', value: s(oneMs), unit: 's' },
        { label: 'ratio one changed / full', value: Math.round((oneMs / fullMs) * 100) / 100, unit: '×' },
        { label: 'article pages rendered after one change', value: median(one.map((b) => b.rendered)), unit: '', target: '= 1', ok: one.every((b) => b.rendered === 1) },
      ],
    };
  } finally {
    await emulator.stop();
    await rm(root, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
