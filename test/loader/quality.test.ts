// Quality checks in a real `astro build` of a fixture site with planted flaws (the embedded emulator's `flaws`): each finding
// appears with its code in `entry.data.quality` (printed by the page; the site asks for the findings with `entryData`), in the
// build log and in `check --json`; a clean article has none; a code set to 'off' never appears; a hand edit is checked too; a
// wrong setting is one clear error. With the slim default entry (no findings on it), the log gives the same findings.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliBothWays, runCliInProcess } from '../cli/in-process-cli.js';
import { astro, buildPackage, createSite, type RunResult, type Site } from './astro-site.js';
import { storedEntries } from './data-store.js';

let site: Site;
let build: RunResult;

const FLAWS: Record<string, string[]> = {
  'coffee grinder guide': ['writer-leftover'],
  'milk frothing basics': ['missing-keyword'],
  'latte art for beginners': ['other-language'],
  'cold brew at home': ['repeated-paragraph'],
  'pour over coffee': ['copy'],
  '7 best coffee scales': ['wrong-item-count'],
};
/** Entries that need their own parameters for their flaw to show (a count to miss). */
const EXTRA: Record<string, string[]> = { '7 best coffee scales': ['    articleType: listicle'] };
const MANIFEST = [
  'quality:',
  '  codes:',
  '    repeated_text: "off"',
  'articles:',
  '  - keyword: espresso machines',
  '    articleLength: short',
  ...Object.keys(FLAWS).flatMap((keyword) => [`  - keyword: ${keyword}`, ...(EXTRA[keyword] ?? ['    articleLength: short'])]),
  '',
].join('\n');

type Quality = { findings: { slug: string; code: string; severity: string; message: string }[]; errors: number; warnings: number };

/** `entry.data.quality` as the page printed it. */
async function pageQuality(slug: string): Promise<Quality> {
  const html = await readFile(join(site.root, 'dist/articles', slug, 'index.html'), 'utf8');
  const attribute = /data-quality="([^"]*)"/.exec(html)![1]!;
  return JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as Quality;
}

const codes = (quality: Quality): string[] => quality.findings.map((finding) => finding.code);
const SLUGS = ['espresso-machines', ...Object.keys(FLAWS).map((keyword) => keyword.replace(/ /g, '-'))];

/** The quality rows of the build summary (the articles() integration's block at the end of the log). */
function summaryQuality(output: string): string[] {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => /\[astro-article-loader\] build summary$/.test(line));
  expect(start, output).toBeGreaterThan(-1);
  const rows = lines.slice(start + 1);
  const block = rows.slice(0, rows.findIndex((line) => !/^ {2}/.test(line)));
  const at = block.findIndex((line) => line.startsWith('  quality '));
  return at < 0 ? [] : [block[at]!, ...block.slice(at + 1).filter((line, index, rest) => rest.slice(0, index + 1).every((row) => /^ {12}/.test(row)))].map((line) => line.trim());
}

/** The build log's quality lines: the counts and each error finding, without the time of day. */
const qualityLines = (output: string): string[] =>
  output.split('\n').filter((line) => line.includes('[astro-article-loader]') && /quality: |": [a-z_]+: /.test(line)).map((line) => line.replace(/^\d\d:\d\d:\d\d /, ''));

/** Every page's near_duplicate findings. */
async function nearDuplicates(): Promise<Quality['findings']> {
  return (await Promise.all(SLUGS.map(pageQuality))).flatMap((quality) => quality.findings.filter((f) => f.code === 'near_duplicate'));
}

beforeAll(async () => {
  await buildPackage();
  site = await createSite('basic');
  await writeFile(join(site.root, 'articles.yaml'), MANIFEST);
  const config = join(site.root, 'src/content.config.ts');
  await writeFile(config, (await readFile(config, 'utf8')).replace("manifest: './articles.yaml',", `manifest: './articles.yaml', entryData: ['findings'], emulator: { flaws: { articles: ${JSON.stringify(FLAWS)} } },`));
  // The articles() integration, for its build summary.
  const astroConfig = join(site.root, 'astro.config.mjs');
  await writeFile(
    astroConfig,
    (await readFile(astroConfig, 'utf8'))
      .replace("import { defineConfig, envField } from 'astro/config';", "import { defineConfig, envField } from 'astro/config';\nimport { articles } from 'astro-article-loader';")
      .replace("site: 'https://fixture.example',", "site: 'https://fixture.example',\n  integrations: [articles()],"),
  );
  const page = join(site.root, 'src/pages/articles/[slug].astro');
  await writeFile(page, (await readFile(page, 'utf8')).replace('<body data-status={entry.data.status}>', '<body data-status={entry.data.status} data-quality={JSON.stringify(entry.data.quality)}>'));
  build = await astro(site.root, ['build']);
}, 240_000);

afterAll(async () => {
  await site?.cleanup();
});

describe('quality checks in a build', () => {
  it('should put each planted finding on its entry, with its code and severity, and none on the clean article', async () => {
    expect(build.code, build.output).toBe(0);
    expect(codes(await pageQuality('coffee-grinder-guide'))).toContain('writer_leftover');
    expect(codes(await pageQuality('milk-frothing-basics'))).toContain('keyword_missing');
    expect(codes(await pageQuality('latte-art-for-beginners'))).toContain('language_mismatch');
    const miscounted = await pageQuality('7-best-coffee-scales');
    expect(miscounted.findings.find((f) => f.code === 'item_count_mismatch')).toMatchObject({ slug: '7-best-coffee-scales', severity: 'warning' });
    const leftover = await pageQuality('coffee-grinder-guide');
    expect(leftover.findings.find((f) => f.code === 'writer_leftover')).toMatchObject({ slug: 'coffee-grinder-guide', severity: 'error' });
    expect(leftover.errors).toBeGreaterThan(0);
    expect(await pageQuality('espresso-machines')).toEqual({ findings: [], errors: 0, warnings: 0 });
  });

  it('should find the copied article a near-duplicate of another, across the collection', async () => {
    const near = await nearDuplicates();
    expect(near).toHaveLength(1);
    expect(near[0]!.message).toMatch(/"pour-over-coffee"/);
  });

  it("should not report a code set to 'off', though its flaw is there", async () => {
    for (const slug of ['cold-brew-at-home', 'espresso-machines', 'coffee-grinder-guide']) expect(codes(await pageQuality(slug))).not.toContain('repeated_text');
  });

  it('should give the counts and each error finding by slug in the build log', () => {
    expect(build.output).toMatch(/quality: \d+ errors?, \d+ warnings? in \d+ articles?; `astro-article-loader check` lists them/);
    expect(build.output).toContain('"coffee-grinder-guide": writer_leftover:');
    expect(build.output).toContain('"milk-frothing-basics": keyword_missing:');
    expect(build.output).toContain('"latte-art-for-beginners": language_mismatch:');
  });

  it('should log and summarise the same findings with the slim default entry, which stores their counts only, built anew and built again unchanged', async () => {
    const config = join(site.root, 'src/content.config.ts');
    const detailed = await readFile(config, 'utf8');
    const pages = Object.fromEntries(await Promise.all(SLUGS.map(async (slug) => [slug, await pageQuality(slug)] as const)));
    try {
      await writeFile(config, detailed.replace("entryData: ['findings'], ", ''));
      // Every entry is written again, slim (the digest covers entryData), from its processed record; then nothing changes,
      // and the findings of the entries the store holds come from the loader's note of them.
      for (const label of ['rewritten', 'unchanged']) {
        const slim = await astro(site.root, ['build']);
        expect(slim.code, slim.output).toBe(0);
        expect(qualityLines(slim.output).sort(), label).toEqual(qualityLines(build.output).sort());
        expect(summaryQuality(slim.output).sort(), label).toEqual(summaryQuality(build.output).sort());
        const stored = await storedEntries(site.root);
        for (const slug of SLUGS) {
          const { findings, ...counts } = pages[slug]!;
          expect(stored.get(slug)?.data.quality, `${label} ${slug}`).toEqual(counts);
          expect(counts.errors + counts.warnings, slug).toBe(findings.length);
        }
      }
      expect(qualityLines(build.output).length).toBeGreaterThan(1);
      expect(summaryQuality(build.output)[0]).toMatch(/^quality +\d+ errors?, \d+ warnings? in \d+ articles?/);
    } finally {
      await writeFile(config, detailed);
      // The findings back on the pages, for the cases below.
      expect((await astro(site.root, ['build'])).code).toBe(0);
    }
  }, 240_000);

  it('should report the same findings in check --json from the processed records, with 0 requests, and exit 5', async () => {
    // Through the bin's own `main` in this process (test/cli/in-process-cli.ts), and through the built bin in a child, which must answer alike.
    const { inProcess: result, bin } = await runCliBothWays(['check', '--json'], { cwd: site.root });
    expect(bin).toEqual(result);
    const document = JSON.parse(result.stdout) as { command: string; exitCode: number; findings: Quality['findings']; counts: Record<string, number> };
    expect(result.code, result.stderr).toBe(5);
    expect(document).toMatchObject({ schemaVersion: 1, command: 'check', exitCode: 5, counts: { articles: 7, fromRecords: 7, processedNow: 0 } });
    for (const slug of ['coffee-grinder-guide', 'milk-frothing-basics', 'latte-art-for-beginners']) {
      expect(document.findings.filter((f) => f.slug === slug).map((f) => f.code)).toEqual(codes(await pageQuality(slug)));
    }
    expect(document.findings.filter((f) => f.slug === 'espresso-machines')).toEqual([]);
    expect(document.findings.map((f) => f.code)).not.toContain('repeated_text');
    expect(document.findings.filter((f) => f.code === 'near_duplicate')).toHaveLength(1);
  });

  it("should take a record's own findings as they stand while they were decided from check's settings, and check again once the settings differ", async () => {
    // The record of the clean article is doctored to hold a finding its HTML does not have: `check` shows it, so it read the record's findings.
    const file = join(site.root, 'articles.cache/processed/espresso-machines.json.gz');
    const original = await readFile(file);
    const envelope = JSON.parse(gunzipSync(original).toString('utf8')) as { value: { quality: { findings: Quality['findings']; checkedWith?: unknown } } };
    expect(envelope.value.quality.checkedWith).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{32}$/), origins: ['https://fixture.example'] });
    envelope.value.quality.findings = [{ slug: 'espresso-machines', code: 'writer_leftover', severity: 'error', message: 'doctored in the record' }];
    const manifest = join(site.root, 'articles.yaml');
    try {
      await writeFile(file, gzipSync(JSON.stringify(envelope)));
      const kept = JSON.parse((await runCliInProcess(['check', '--json'], { cwd: site.root })).stdout) as { findings: Quality['findings'] };
      expect(kept.findings.filter((f) => f.slug === 'espresso-machines').map((f) => f.message)).toEqual(['doctored in the record']);
      // Other settings than the build's: the record's findings were not decided from them, so the article is checked again (and is clean).
      await writeFile(manifest, MANIFEST.replace('    repeated_text: "off"', '    repeated_text: "off"\n    length_out_of_range: "off"'));
      const again = JSON.parse((await runCliInProcess(['check', '--json'], { cwd: site.root })).stdout) as { findings: Quality['findings'] };
      expect(again.findings.filter((f) => f.slug === 'espresso-machines')).toEqual([]);
      expect(again.findings.filter((f) => f.slug === 'coffee-grinder-guide').map((f) => f.code)).toContain('writer_leftover');
    } finally {
      await writeFile(file, original);
      await writeFile(manifest, MANIFEST);
    }
  });

  it('should keep the near-duplicate finding through a rebuild with nothing changed, read it from the cache on a cold store (and in check), and drop it once the copy is edited apart', async () => {
    // The store is warm and nothing changed: the findings decided by the first build stand (they are not decided again).
    const unchanged = await astro(site.root, ['build']);
    expect(unchanged.code, unchanged.output).toBe(0);
    expect(await nearDuplicates()).toHaveLength(1);
    // A cold store (CI, a fresh clone): the pairs come from the cache's near-duplicates/, not measured again.
    // The kept pair is doctored to 42% (its checksum made again): the page shows 42%, so the memo was read.
    const memoDir = join(site.root, 'articles.cache/near-duplicates');
    const [memoFile] = await readdir(memoDir);
    const record = JSON.parse(await readFile(join(memoDir, memoFile!), 'utf8')) as { sha256: string; value: { articles: [string, [string, number, boolean][], number][] } };
    expect(record.value.articles).toHaveLength(1);
    record.value.articles[0]![1][0]![1] = 0.42;
    await writeFile(join(memoDir, memoFile!), JSON.stringify({ sha256: createHash('sha256').update(JSON.stringify(record.value)).digest('hex'), value: record.value }));
    await rm(join(site.root, '.astro'), { recursive: true, force: true });
    await rm(join(site.root, 'node_modules/.astro/data-store.json'), { force: true });
    const cold = await astro(site.root, ['build']);
    expect(cold.code, cold.output).toBe(0);
    const [kept, ...others] = await nearDuplicates();
    expect(others).toEqual([]);
    expect(kept!.message).toMatch(/ are (about )?42% alike/);
    // check reads the same memo, so it reports the pair the build decided (42%), not one measured again.
    const checked = JSON.parse((await runCliInProcess(['check', '--json'], { cwd: site.root })).stdout) as { findings: Quality['findings'] };
    expect(checked.findings.filter((f) => f.code === 'near_duplicate').map((f) => f.message)).toEqual([expect.stringMatching(/ are (about )?42% alike/)]);
    const edit = join(site.root, 'articles.edits/pour-over-coffee.html');
    await mkdir(join(site.root, 'articles.edits'), { recursive: true });
    await writeFile(edit, '<p>Pour over coffee, as I make it: a kettle with a thin spout, paper rinsed with hot water, and a slow spiral pour that takes three minutes from the first drop.</p>');
    // The edit stays (its record is now the article's one), so the tests below see every article with a record of its current text.
    const edited = await astro(site.root, ['build']);
    expect(edited.code, edited.output).toBe(0);
    expect(await nearDuplicates()).toEqual([]);
  }, 180_000);

  it('should check a hand edit too, saying it was put through the pipeline now', async () => {
    await mkdir(join(site.root, 'articles.edits'), { recursive: true });
    const original = await readFile(join(site.root, 'dist/articles/espresso-machines/index.html'), 'utf8');
    const body = /<article>([\s\S]*)<\/article>/.exec(original)![1]!;
    await writeFile(join(site.root, 'articles.edits/espresso-machines.html'), `${body}<p>[Insert image here]</p><p>See <a href="/articles/no-such-article/">this guide</a>.</p>`);
    const json = await runCliInProcess(['check', '--json'], { cwd: site.root });
    const document = JSON.parse(json.stdout) as { findings: Quality['findings']; counts: Record<string, number> };
    expect(document.findings.filter((f) => f.slug === 'espresso-machines').map((f) => f.code)).toEqual(expect.arrayContaining(['writer_leftover', 'broken_internal_link']));
    expect(document.counts).toMatchObject({ fromRecords: 6, processedNow: 1 });
    const human = await runCliInProcess(['check'], { cwd: site.root });
    expect(human.code).toBe(5);
    expect(human.stdout).toMatch(/espresso-machines\s+error writer_leftover:/);
    expect(human.stdout).toContain('1 without a record of its current output, put through the pipeline now with default settings');
  });

  it('should show error and warning counts per article in status, and refuse a wrong quality setting in every command before any request', async () => {
    const status = await runCliInProcess(['status', '--no-refresh', '--json'], { cwd: site.root });
    const rows = (JSON.parse(status.stdout) as { articles: { slug: string; quality: { errors: number; warnings: number } | null }[] }).articles;
    expect(rows.find((row) => row.slug === 'coffee-grinder-guide')?.quality?.errors).toBeGreaterThan(0);
    await writeFile(join(site.root, 'articles.yaml'), MANIFEST.replace('repeated_text: "off"', 'repeated_txt: "warn"'));
    for (const command of ['check', 'plan']) {
      const result = await runCliInProcess([command], { cwd: site.root });
      expect(result.code, command).toBe(2);
      expect(result.stderr).toContain('articles.yaml:1 top level → quality.codes.repeated_txt');
      expect(result.stderr).toContain('did you mean "repeated_text"');
    }
  });
});
