// Hand edits from the command line: edit writes the article to articles.edits/, never over an edit; plan, status and verify name it; prune keeps it; no request.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); the refused edit also through the built bin in a child, which must answer alike.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, serviceEnv, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
let dir: string;
let cleanup: () => Promise<void>;
const editFile = () => path.join(dir, 'articles.edits', 'edit-me.html');
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: serviceEnv(emulator.url) });

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
  ({ dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(['edit me', 'leave me']) }));
  expect((await cli(['sync', '--poll-interval', '20ms'])).code).toBe(0);
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

describe('edit', () => {
  it('should write the article to articles.edits/<slug>.html with a header naming its article, without a request', async () => {
    const before = emulator.requests.length;
    const result = await cli(['edit', 'edit-me', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8'));
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'edit', slug: 'edit-me', articleId: lock.articles['edit-me'].articleId });
    const html = await readFile(editFile(), 'utf8');
    expect(html).toMatch(new RegExp(`^<!-- astro-article-loader: hand edit of "edit-me" \\(article ${lock.articles['edit-me'].articleId}\\)\\.`));
    expect(html).toContain('<h1');
    expect(emulator.requests.length).toBe(before);
    expectNoSecret(result);
  });

  it('should never write over an edit, alike through the bin', async () => {
    await writeFile(editFile(), (await readFile(editFile(), 'utf8')).replace(/<h1[^>]*>[^<]*/, '<h1>My own title'));
    const { inProcess: again, bin } = await runCliBothWays(['edit', 'edit-me'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(bin).toEqual(again);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already and is never written over');
    expect(await readFile(editFile(), 'utf8')).toContain('My own title');
  });

  it('should be named by plan and status, checked by verify, and kept by prune', async () => {
    const plan = await cli(['plan', '--json']);
    expect(JSON.parse(plan.stdout)).toMatchObject({ edited: ['edit-me'], editedBehind: [] });
    const status = await cli(['status', '--no-refresh']);
    expect(status.stdout).toContain("Edited by hand (served from articles.edits/ instead of the service's article): edit-me");
    expect((await cli(['verify'])).code).toBe(0);
    expect((await cli(['prune'])).code).toBe(0);
    expect(await readFile(editFile(), 'utf8')).toContain('My own title');
  });

  it('should say when a newer article exists behind the edit, and fail verify on an empty edit', async () => {
    const regenerated = await cli(['regenerate', 'edit-me', '--poll-interval', '20ms']);
    expect(regenerated.code).toBe(0);
    // Not "served until the new ones are finished": the edit stays on the site, and the message says so.
    expect(regenerated.stderr).toContain('A hand edit stays on the site instead of the new article until you delete it: articles.edits/edit-me.html.');
    expect(await readFile(editFile(), 'utf8')).toContain('My own title');
    const status = await cli(['status', '--no-refresh']);
    expect(status.stdout).toContain('edit-me: a newer article exists behind the edit');
    const verify = await cli(['verify', '--json']);
    expect(verify.code).toBe(0);
    const editProblems = (JSON.parse(verify.stdout).problems as { code: string }[]).filter((problem) => problem.code.includes('edit'));
    expect(editProblems).toEqual([expect.objectContaining({ code: 'edit_behind', slug: 'edit-me', severity: 'warning' })]);
    await writeFile(editFile(), '<!-- nothing left -->\n');
    const empty = await cli(['verify', '--json']);
    expect(empty.code).toBe(4);
    expect(JSON.parse(empty.stdout).problems).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'empty_edit', slug: 'edit-me' })]));
  });

  it('should take a slug typed in another Unicode form (é as e + U+0301) as the slug it names', async () => {
    const { dir: own, cleanup: done } = await tempProject({ 'articles.yaml': 'articles:\n  - keyword: coffee notes\n    slug: café\n' });
    try {
      const run = (args: string[]) => runCliInProcess(args, { cwd: own, env: serviceEnv(emulator.url) });
      expect((await run(['sync', '--poll-interval', '20ms'])).code).toBe(0);
      const decomposed = 'cafe\u0301';
      expect(decomposed).not.toBe('café');
      const result = await run(['edit', decomposed]);
      expect(result.code, result.stderr).toBe(0);
      expect(await readFile(path.join(own, 'articles.edits', 'café.html'), 'utf8')).toContain('hand edit of "café"');
    } finally {
      await done();
    }
  });
});
