// `plan` from the command line: what it lists and why, the request diff, the cost estimate, no requests, exit codes, --json.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); the first case also through the built bin in a child, which must answer alike.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, serviceEnv, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
});

afterAll(async () => {
  await emulator?.stop();
  for (const cleanup of cleanups) await cleanup();
});

async function project(files: Record<string, string>): Promise<string> {
  const { dir, cleanup } = await tempProject(files);
  cleanups.push(cleanup);
  return dir;
}

describe('astro-article-loader plan', () => {
  it('should list every new article with its estimate and exit 3 without a single request, alike through the bin', async () => {
    const dir = await project({ 'articles.yaml': manifestYaml(['best hiking boots', 'easy houseplants'], { articleLength: 'short' }) });
    const before = emulator.requests.length;
    const { inProcess: result, bin } = await runCliBothWays(['plan'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(bin).toEqual(result);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/create\s+best-hiking-boots\s+new entry\s+~1,200 words/);
    expect(result.stdout).toMatch(/create\s+easy-houseplants\s+new entry/);
    expect(result.stdout).toContain('Estimated cost: ~2,400 words');
    expect(emulator.requests.length).toBe(before);
    expectNoSecret(result);
  });

  it('should show a changed request as a diff of the canonical request after a sync', async () => {
    const dir = await project({ 'articles.yaml': manifestYaml(['best hiking boots'], { articleLength: 'short' }) });
    expect((await runCliInProcess(['sync', '--poll-interval', '20ms'], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    await writeFile(path.join(dir, 'articles.yaml'), manifestYaml(['best hiking boots'], { articleLength: 'long' }));

    const result = await runCliInProcess(['plan'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/create\s+best-hiking-boots\s+request changed since the lock file: 1 field/);
    expect(result.stdout).toMatch(/^\s+- articleLength: "short"$/m);
    expect(result.stdout).toMatch(/^\s+\+ articleLength: "long"$/m);
  });

  it('should refuse a manifest whose data: names a built-in entry field, in plan, sync and regenerate: exit 2, file, entry and field, no request', async () => {
    const manifest = 'articles:\n  - keyword: best pour over kettles\n    data:\n      title: Kettles we like\n';
    const dir = await project({ 'articles.yaml': manifest });
    const before = emulator.requests.length;
    for (const args of [['plan'], ['sync'], ['regenerate', 'best-pour-over-kettles']]) {
      const result = await runCliInProcess(args, { cwd: dir, env: serviceEnv(emulator.url) });
      const text = `${result.stdout}${result.stderr}`;
      expect(result.code, `${args.join(' ')}: ${text}`).toBe(2);
      expect(text).toContain('articles.yaml:4 articles[0] "best pour over kettles" → data.title: clashes with the built-in entry field `title`');
      expectNoSecret(result);
    }
    const json = await runCliInProcess(['plan', '--json'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: 'invalid_manifest',
      problems: [{ file: path.join(dir, 'articles.yaml'), line: 4, section: 'articles', index: 0, keyword: 'best pour over kettles', field: 'data.title' }],
    });
    expect(emulator.requests.length).toBe(before);
  });

  it('should exit 0 and say so when everything is up to date', async () => {
    const dir = await project({ 'articles.yaml': manifestYaml(['sourdough starter']) });
    expect((await runCliInProcess(['sync', '--poll-interval', '20ms'], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    const result = await runCliInProcess(['plan'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Up to date');
  });

  it('should price images by model and count internal-link credits when asked, in the documented --json shape', async () => {
    const manifest = `articles:\n  - keyword: cast iron care\n    articleLength: short\n    multimediaOption: images\n    maxImages: 3\n    imageModel: model-image-2-medium\n`;
    const dir = await project({ 'articles.yaml': manifest });
    const result = await runCliInProcess(['plan', '--json', '--internal-links'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toBe('');
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({
      schemaVersion: 1,
      command: 'plan',
      exitCode: 3,
      manifest: path.join(dir, 'articles.yaml'),
      lockFile: path.join(dir, 'articles.lock.json'),
      budget: 25,
      frozen: false,
      wouldCreate: true,
      overBudget: false,
      counts: { create: 1, reuse: 0, orphan: 0 },
      estimate: { words: 1200 + 3 * 200, textWords: 1200, imageWords: 600, images: 3, internalLinkCredits: 1 },
      orphans: [],
    });
    expect(document.articles).toEqual([
      expect.objectContaining({ slug: 'cast-iron-care', action: 'create', reason: { kind: 'new' }, why: 'new entry', articleId: null, lockStatus: null }),
    ]);
  });

  it('should flag a plan over the budget and under frozen mode (CI)', async () => {
    const dir = await project({ 'articles.yaml': manifestYaml(['one', 'two', 'three']) });
    const overBudget = await runCliInProcess(['plan', '--budget', '2'], { cwd: dir });
    expect(overBudget.code).toBe(3);
    expect(overBudget.stdout).toContain('Over budget: 3 new articles, budget 2');
    const frozen = await runCliInProcess(['plan'], { cwd: dir, env: { CI: 'true' } });
    expect(frozen.stdout).toContain('Frozen mode is on (CI is set)');
  });

  it('should report an invalid manifest with exit 2, as JSON with --json', async () => {
    const dir = await project({ 'articles.yaml': 'articles:\n  - keyword: shoes\n    articleLenght: long\n' });
    const result = await runCliInProcess(['plan', '--json'], { cwd: dir });
    expect(result.code).toBe(2);
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({ schemaVersion: 1, command: 'plan', exitCode: 2, error: { code: 'invalid_manifest' } });
    expect(document.error.message).toContain('articleLenght');
    expect(document.error.problems[0]).toMatchObject({ field: 'articleLenght' });
  });

  it('should say how to start when there is no manifest, and refuse two candidates', async () => {
    const empty = await project({});
    const none = await runCliInProcess(['plan'], { cwd: empty });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no manifest found');
    expect(none.stderr).toContain('--manifest');
    const two = await project({ 'articles.yaml': manifestYaml(['a']), 'articles.csv': 'keyword\nb\n' });
    const ambiguous = await runCliInProcess(['plan'], { cwd: two });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('found articles.yaml and articles.csv');
    const json = await runCliInProcess(['plan', '--json'], { cwd: two });
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'manifest_ambiguous' });
    expect(JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: empty })).stdout).error).toMatchObject({ code: 'manifest_not_found' });
  });
});
