// An unknown create, closed as a user would: plan and verify name it, adopt attaches the id from the queue, nothing is paid twice.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); the sync that loses its answer through the built bin in a child, and a plan and a refused adopt both ways, which must answer alike.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticleClient } from '../../src/api/client.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, runCli, SECRET_KEY, serviceEnv, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
let dir: string;
let cleanup: () => Promise<void>;
const FAST = ['--poll-interval', '20ms'];
const KEYWORDS = ['adopt cli first', 'adopt cli lost answer'];

const lockText = (): Promise<string> => readFile(path.join(dir, 'articles.lock.json'), 'utf8');
const cli = (args: string[]) => runCliInProcess(args, { cwd: dir, env: serviceEnv(emulator.url) });
/** Runs `args` here and through the bin, which must answer alike (a run that changes nothing). */
async function cliBothWays(args: string[]) {
  const { inProcess, bin } = await runCliBothWays(args, { cwd: dir, env: serviceEnv(emulator.url) });
  expect(bin, `${args.join(' ')} through the bin`).toEqual(inProcess);
  return inProcess;
}

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
  ({ dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(KEYWORDS.slice(0, 1)) }));
  expect((await cli(['sync', ...FAST])).code).toBe(0);
  // The service creates (and bills) the next article, then the connection drops before its id comes back.
  emulator.setFaults({ routes: { createArticle: { resetsAfterProcessing: 1 } } });
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path.join(dir, 'articles.yaml'), manifestYaml(KEYWORDS));
  // Through the bin: the connection drops in a child process, as it would for a user.
  const sync = await runCli(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
  emulator.setFaults(undefined);
  expect(sync.code).toBe(1);
  expect(sync.stdout).toContain('adopt adopt-cli-lost-answer <articleId>');
  await emulator.settle();
}, 120_000);

afterAll(async () => {
  await emulator?.stop();
  await cleanup?.();
});

describe('an unknown create from the command line', () => {
  it('should be listed by plan and status with both ways out, and never say a later build resumes it', async () => {
    for (const command of ['plan', 'status']) {
      const result = command === 'plan' ? await cliBothWays([command]) : await cli([command]);
      const text = `${result.stdout}${result.stderr}`;
      expect(text).toContain('adopt adopt-cli-lost-answer <articleId>');
      expect(text).toContain('--retry-unknown=adopt-cli-lost-answer');
      expect(text).not.toMatch(/resume/i);
      expectNoSecret(result);
    }
  });

  it('should fail verify with unresolved_unknown', async () => {
    const result = await cli(['verify', '--json']);
    expect(result.code).toBe(4);
    expect(JSON.parse(result.stdout).problems).toEqual([expect.objectContaining({ code: 'unresolved_unknown', slug: 'adopt-cli-lost-answer' })]);
  });

  it('should refuse another keyword\'s article, an unknown slug and a missing argument, leaving the lock file byte-identical', async () => {
    const before = await lockText();
    const first = JSON.parse(before).articles['adopt-cli-first'].articleId as string;
    const mismatch = await cliBothWays(['adopt', 'adopt-cli-lost-answer', first]);
    expect(mismatch.code).toBe(1);
    expect(mismatch.stderr).toContain('"adopt cli first"');
    expect(mismatch.stderr).toContain('"adopt cli lost answer"');
    expect(mismatch.stderr).not.toMatch(/^\s+at /m);
    const slug = await cli(['adopt', 'no-such-slug', first, '--json']);
    expect(slug.code).toBe(1);
    expect(JSON.parse(slug.stdout)).toMatchObject({ command: 'adopt', exitCode: 1, error: { code: 'adopt_unknown_slug' } });
    const usage = await cli(['adopt', 'adopt-cli-lost-answer']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('<articleId>');
    expect(await lockText()).toBe(before);
  });

  it('should refuse an id that is no UUID as a usage error before reading or sending anything, shortening a long one', async () => {
    const before = await lockText();
    const requests = emulator.requests.length;
    for (const id of ['../../etc/passwd', 'id\nX-Evil: 1', 'x'.repeat(5000)]) {
      const result = await cli(['adopt', 'adopt-cli-lost-answer', id]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('is not an article id: the service gives out UUIDs such as');
      expect(result.stderr).toContain('Nothing was read or sent.');
      expect(result.stderr.length).toBeLessThan(600);
    }
    const json = await cli(['adopt', 'adopt-cli-lost-answer', 'nope', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ command: 'adopt', exitCode: 2, error: { code: 'usage' } });
    expect(emulator.requests.length).toBe(requests);
    expect(await lockText()).toBe(before);
  });

  it('should adopt the article the service made, found as a user finds it on the queue page, and then build with no new create', async () => {
    const [created] = emulator.ledger.creationsForKeyword('adopt cli lost answer');
    expect(created).toBeDefined();
    const creations = emulator.ledger.totals.creations;
    const result = await cli(['adopt', 'adopt-cli-lost-answer', created!.articleId, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'adopt', exitCode: 0, slug: 'adopt-cli-lost-answer', articleId: created!.articleId, status: 'finished', before: 'unknown' });
    expect((await cli(['verify'])).code).toBe(0);
    const plan = await cli(['plan', '--json']);
    expect(plan.code).toBe(0);
    expect(JSON.parse(plan.stdout).counts).toMatchObject({ reuse: 2, create: 0, unknown: 0 });
    expect((await cli(['sync', ...FAST])).code).toBe(0);
    expect(emulator.ledger.totals.creations).toBe(creations);
    expect(emulator.ledger.duplicates()).toEqual([]);
    expect(await lockText()).not.toContain(SECRET_KEY);
  });

  it('should never send a create', async () => {
    const client = createArticleClient({ baseUrl: emulator.url, apiKey: SECRET_KEY });
    try {
      const id = await client.createArticle({ targetKeyword: 'adopt cli first' });
      await emulator.settle();
      const creates = emulator.requests.filter((r) => r.route === 'createArticle').length;
      const result = await cli(['adopt', 'adopt-cli-first', id]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('already has a finished article');
      expect(emulator.requests.filter((r) => r.route === 'createArticle').length).toBe(creates);
    } finally {
      await client.close();
    }
  });
});
