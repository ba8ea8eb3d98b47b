// Reprocessing every article (a changed link map or pipeline option): the pipeline for 1,000 articles on the loader's
// thread against a pool of 2 worker threads, each writing the processed records, as a build's pass does.
//
// Run: npm run build && node bench/reprocessing.mjs
//
// The loader uses workers only with 3 or more cores (src/loader/pipeline-pool.ts); this measures the pool whatever the
// machine, so the figure that set that rule is printed where it can be checked.
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeCachedCorpus } from './article-corpus.mjs';
import { importDist } from './dist-location.mjs';
import { runIfMain } from './report.mjs';

const ROUNDS = 3;

export async function run({ articles = Number(process.env.BENCH_REPROCESS_ARTICLES ?? 1_000) } = {}) {
  const [{ inProcess, workerPool }, { buildLinkMap }] = await Promise.all([importDist('loader/pipeline-pool.js'), importDist('pipeline/index.js')]);
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-reprocess-'));
  try {
    const { specs, lockFile } = await writeCachedCorpus({ dir: root, count: articles });
    const lock = JSON.parse(await readFile(lockFile, 'utf8'));
    const outputs = await Promise.all(specs.map(async (spec) => JSON.parse(await readFile(join(root, 'articles.cache/outputs', `${lock.articles[spec.slug].output.slice('sha256:'.length)}.json`), 'utf8'))));
    const site = { links: buildLinkMap({ articles: specs.map((spec) => ({ slug: spec.slug, keyword: spec.keyword })), url: (slug) => `/articles/${slug}/` }) };
    const jobs = specs.map((spec, index) => ({
      html: outputs[index].html,
      article: { keyword: spec.keyword, slug: spec.slug, url: `/articles/${spec.slug}/`, request: spec.request },
      keep: { cacheDir: join(root, 'reprocessed'), output: lock.articles[spec.slug].output, key: 'bench', polished: false, updatedAt: outputs[index].updatedAt },
    }));
    const time = async (processor) => {
      await rm(join(root, 'reprocessed'), { recursive: true, force: true });
      const started = performance.now();
      await Promise.all(jobs.map((job) => processor.process(job)));
      await processor.close();
      return performance.now() - started;
    };
    const here = [];
    const pool = [];
    for (let round = 0; round < ROUNDS; round++) {
      here.push(await time(inProcess(site)));
      pool.push(await time(workerPool(site, 2)));
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ratio = median(pool) / median(here);
    return {
      name: 'reprocessing',
      notes: [
        `${articles} articles through the whole pipeline with a ${articles}-entry link map, records written to a processed cache; median of ${ROUNDS}`,
        `this machine: ${availableParallelism()} cores; the loader uses workers only with 3 or more (and 100+ articles to process)`,
      ],
      figures: [
        { label: 'on the loader\'s thread', value: Math.round(median(here)), unit: 'ms' },
        { label: 'on 2 worker threads (startup included)', value: Math.round(median(pool)), unit: 'ms' },
        { label: 'ratio workers / one thread', value: Math.round(ratio * 100) / 100, unit: '×' },
      ],
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, run);
