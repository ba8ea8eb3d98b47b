// Memory benchmark: peak RSS of a sync that reuses 10,000 cached articles plus the pipeline over every one of them.
//
// Run: npm run build && node bench/memory.mjs   (BENCH_MEMORY_ARTICLES to change the count)
// The corpus (manifest, lock file, cache) is generated in a temp dir by this process; the
// measurement runs in a fresh child process, so its peak RSS (process.resourceUsage().maxRSS)
// holds only what a build's load step does: read the manifest, sync, then read each output one at
// a time and run processArticle on it, keeping only small per-article metadata.

import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeCachedCorpus } from './article-corpus.mjs';
import { importDist } from './dist-location.mjs';

const TARGET_MIB = 400;

function mib(kib) {
  return Math.round((kib / 1024) * 10) / 10;
}

/** The measured part, in the child: manifest → sync (everything reused) → pipeline per article. */
async function measure(dir) {
  const baselineKiB = process.resourceUsage().maxRSS;
  const [{ loadManifest }, sync, pipeline] = await Promise.all([importDist('manifest/index.js'), importDist('sync/index.js'), importDist('pipeline/index.js')]);
  const importedKiB = process.resourceUsage().maxRSS;
  const started = performance.now();
  const { specs } = await loadManifest(join(dir, 'articles.yaml'));
  const result = await sync.syncArticles({ specs, lockFile: join(dir, sync.LOCK_FILE_NAME), frozen: true });
  const syncMs = performance.now() - started;
  const afterSyncKiB = process.resourceUsage().maxRSS;
  if (result.totals.reused !== specs.length) throw new Error(`memory benchmark: expected every article reused, got ${JSON.stringify(result.totals)}`);

  // As the loader does: one link map for the site (every article's keyword), one article at a time.
  const url = (slug) => `/articles/${slug}/`;
  const links = pipeline.buildLinkMap({ articles: specs.map((spec) => ({ slug: spec.slug, keyword: spec.keyword })), url });
  const pipelineStarted = performance.now();
  let words = 0;
  let insertedLinks = 0;
  for (const spec of specs) {
    const output = await result.readOutput(spec.slug);
    if (output === undefined) throw new Error(`memory benchmark: no output for ${spec.slug}`);
    const article = await pipeline.processArticle(output.polishedHtml ?? output.html, {
      keyword: spec.keyword,
      slug: spec.slug,
      url: url(spec.slug),
      articleType: spec.request.articleType,
      links,
    });
    words += article.wordCount;
    insertedLinks += article.links.filter((link) => link.source === 'local').length;
  }
  const pipelineMs = performance.now() - pipelineStarted;
  return {
    articles: specs.length,
    baselineKiB,
    importedKiB,
    afterSyncKiB,
    peakKiB: process.resourceUsage().maxRSS,
    heapUsedMiB: Math.round(process.memoryUsage().heapUsed / 1024 / 1024),
    syncMs,
    pipelineMs,
    words,
    insertedLinks,
  };
}

function measureInChild(dir) {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--measure', dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let answer;
    child.on('message', (message) => (answer = message));
    child.on('exit', (code) => {
      if (answer?.error !== undefined) reject(new Error(answer.error));
      else if (answer !== undefined) resolve(answer);
      else reject(new Error(`the measuring process exited (${code}) without a result`));
    });
  });
}

export async function run({ articles = Number(process.env.BENCH_MEMORY_ARTICLES ?? 10_000) } = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'aal-bench-memory-'));
  try {
    const generated = Date.now();
    await writeCachedCorpus({ dir, count: articles });
    const generateMs = Date.now() - generated;
    const m = await measureInChild(dir);
    const peak = mib(m.peakKiB);
    return {
      name: 'memory',
      notes: [
        `${m.articles} finished articles in the lock file and the cache (generated in ${Math.round(generateMs / 1000)} s, not measured)`,
        'measured in a fresh process: load the YAML manifest, syncArticles (frozen, all reused), then readOutput + processArticle per article, one at a time, with a link map of every keyword',
        'peak RSS = process.resourceUsage().maxRSS of that process',
      ],
      figures: [
        { label: 'peak RSS (sync + pipeline)', value: peak, unit: 'MiB', target: `≤ ${TARGET_MIB}`, ok: peak <= TARGET_MIB },
        { label: '  RSS of node + the package imported', value: mib(m.importedKiB), unit: 'MiB' },
        { label: '  peak RSS after the sync', value: mib(m.afterSyncKiB), unit: 'MiB' },
        { label: 'sync (manifest + plan, all reused)', value: Math.round(m.syncMs), unit: 'ms' },
        { label: 'pipeline over every article', value: Math.round(m.pipelineMs), unit: 'ms' },
        { label: '  per article', value: Math.round((m.pipelineMs / m.articles) * 100) / 100, unit: 'ms' },
        { label: 'local links inserted (sanity)', value: m.insertedLinks, unit: '' },
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--measure') {
  measure(process.argv[3]).then(
    (value) => process.send(value, () => process.exit(0)),
    (error) => process.send({ error: error.stack ?? String(error) }, () => process.exit(1)),
  );
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printResult } = await import('./report.mjs');
  run().then(printResult, (error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
