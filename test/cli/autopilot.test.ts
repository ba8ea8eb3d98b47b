// `autopilot --no-git` against a live emulator on a fixed clock: what it selects and in which order, the caps across runs, nothing to do, review approvals, the report (its documented sections, no secret), and a report path refused before anything is spent.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { REPORT_SECTIONS } from '../../src/autopilot/report.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, SECRET_KEY, serviceEnv, spawnCli, tempProject, type CliResult } from './cli-harness.js';
import { runCliInProcess } from './in-process-cli.js';

let emulator: RunningEmulator;
const cleanups: (() => Promise<void>)[] = [];
const NOW = '2026-11-20T09:00:00Z';
/** One create at a time, so the ledger's order is the run's order; polls fast against the instant emulator. */
const RUN = ['autopilot', '--no-git', '--poll-interval', '20ms', '--concurrency', '1'];

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS, flaws: { articles: { 'autopilot flawed leftovers': ['writer-leftover'] } } });
});

afterAll(async () => {
  await emulator?.stop();
  for (const cleanup of cleanups) await cleanup();
});

async function project(manifest: string): Promise<string> {
  const { dir, cleanup } = await tempProject({ 'articles.yaml': manifest });
  cleanups.push(cleanup);
  return dir;
}

function env(): Record<string, string> {
  return { ...serviceEnv(emulator.url), ARTICLE_LOADER_NOW: NOW };
}

async function run(dir: string, ...args: string[]): Promise<CliResult> {
  const result = await runCliInProcess([...RUN, ...args], { cwd: dir, env: env() });
  expectNoSecret(result);
  return result;
}

const createRequests = (): number => emulator.requests.filter((request) => request.method === 'POST' && request.path.startsWith('/api/articles')).length;
const createdKeywords = (keywords: readonly string[]): string[] => emulator.ledger.creations.filter((c) => keywords.includes(c.targetKeyword)).map((c) => c.targetKeyword);

/** The `## ` headings of a Markdown report, in order. */
function headings(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('## ')).map((line) => line.slice(3));
}

/** The text of one `## ` section of a report. */
function section(markdown: string, name: string): string {
  const start = markdown.indexOf(`\n## ${name}\n`);
  expect(start, name).toBeGreaterThan(-1);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

describe('astro-article-loader autopilot', () => {
  it('should take the dates within the lookahead earliest first, then new entries in manifest order, up to perRun, and leave the rest', async () => {
    const keywords = ['autopilot new first', 'autopilot dated later', 'autopilot new second', 'autopilot dated soon', 'autopilot dated far'];
    const dir = await project(
      [
        'budget:',
        '  perRun: 3',
        'lookahead: 10d',
        'articles:',
        '  - autopilot new first',
        '  - keyword: autopilot dated later',
        '    publishDate: 2026-11-25',
        '  - autopilot new second',
        '  - keyword: autopilot dated soon',
        '    publishDate: 2026-11-22',
        '  - keyword: autopilot dated far',
        '    publishDate: 2027-01-15',
        '',
      ].join('\n'),
    );
    const result = await run(dir, '--report', 'report.md');
    expect(result.code, result.stderr).toBe(6);
    expect(createdKeywords(keywords)).toEqual(['autopilot dated soon', 'autopilot dated later', 'autopilot new first']);
    const created = result.stdout.split('\n').filter((line) => line.startsWith('created '));
    expect(created.map((line) => line.split(' ')[1])).toEqual(['autopilot-dated-soon', 'autopilot-dated-later', 'autopilot-new-first']);
    const report = await readFile(path.join(dir, 'report.md'), 'utf8');
    const left = section(report, 'Left for the next run');
    expect(left).toContain('`autopilot-new-second` (new): held back by the per-run cap');
    expect(left).toContain('1 scheduled article dated beyond the lookahead');
    expect(left).not.toContain('autopilot-dated-far`');
    expect(section(report, 'Going live')).toMatch(/`autopilot-dated-soon`: 2026-11-22 00:00 UTC[\s\S]*`autopilot-dated-later`: 2026-11-25 00:00 UTC/);
  });

  it('should create the scheduled articles dated within the default lookahead (7d) and record the calendar\'s dates', async () => {
    const keywords = ['calendar one', 'calendar two', 'calendar three', 'calendar four'];
    const dir = await project(manifestYaml(keywords, { schedule: '{ start: 2026-11-21, every: 3d, at: "09:00", timezone: UTC }' }));
    const result = await run(dir, '--report', 'calendar.md');
    expect(result.code, result.stderr).toBe(6);
    expect(createdKeywords(keywords)).toEqual(keywords.slice(0, 3));
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')) as { schedule: Record<string, string> };
    expect(lock.schedule).toEqual({
      'calendar-one': '2026-11-21T09:00:00.000Z',
      'calendar-two': '2026-11-24T09:00:00.000Z',
      'calendar-three': '2026-11-27T09:00:00.000Z',
      'calendar-four': '2026-11-30T09:00:00.000Z',
    });
    const report = await readFile(path.join(dir, 'calendar.md'), 'utf8');
    expect(section(report, 'Going live')).toContain('`calendar-three`: 2026-11-27 09:00 UTC');
    expect(section(report, 'Left for the next run')).toContain('1 scheduled article dated beyond the lookahead');
  });

  it('should create 3 in all over two runs on one day with perMonth: 3 and 5 due, the second saying the cap is reached (exit 7)', async () => {
    const keywords = ['cap one', 'cap two', 'cap three', 'cap four', 'cap five'];
    const dir = await project(`budget:\n  perMonth: 3\n${manifestYaml(keywords)}`);
    const first = await run(dir, '--report', 'first.md');
    expect(first.code, first.stderr).toBe(6);
    expect(createdKeywords(keywords)).toHaveLength(3);
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')) as { spent: Record<string, { articles: number; words: number }> };
    const month = new Date().toISOString().slice(0, 7);
    expect(lock.spent[month]!.articles).toBe(3);
    expect(lock.spent[month]!.words).toBeGreaterThan(0);

    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'));
    const createsBefore = createRequests();
    const second = await run(dir, '--report', 'second.md');
    expect(second.code, second.stderr).toBe(7);
    expect(createRequests()).toBe(createsBefore);
    expect(createdKeywords(keywords)).toHaveLength(3);
    expect(await readFile(path.join(dir, 'articles.lock.json'))).toEqual(lockBefore);
    const report = await readFile(path.join(dir, 'second.md'), 'utf8');
    expect(report.split('\n')[0]).toContain('the monthly cap is reached (3 of 3 this month)');
    expect(section(report, 'Spending')).toContain('cap 3, 0 articles left this month');
    expect(section(report, 'Left for the next run')).toContain('`cap-four` (new): held back by the monthly cap (budget.perMonth)');
  });

  it('should make no request and exit 0 when there is nothing to do, and write the report all the same', async () => {
    const keywords = ['idle one', 'idle two'];
    const dir = await project(manifestYaml(keywords));
    expect((await run(dir)).code).toBe(6);
    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'));
    const requestsBefore = emulator.requests.length;
    const idle = await run(dir, '--report', 'idle.md');
    expect(idle.code, idle.stderr).toBe(0);
    expect(emulator.requests.length).toBe(requestsBefore);
    expect(await readFile(path.join(dir, 'articles.lock.json'))).toEqual(lockBefore);
    expect((await readFile(path.join(dir, 'idle.md'), 'utf8')).split('\n')[0]).toBe('# Articles: nothing to do');
  });

  it('should approve, with review: true, only the articles with no error finding, and list the rest as waiting', async () => {
    const dir = await project(`review: true\n${manifestYaml(['autopilot clean article', 'autopilot flawed leftovers'])}`);
    const result = await run(dir, '--report', 'review.md');
    expect(result.code, result.stderr).toBe(6);
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')) as { articles: Record<string, { output?: string; approved?: { output: string } }> };
    expect(lock.articles['autopilot-clean-article']!.approved?.output).toBe(lock.articles['autopilot-clean-article']!.output);
    expect(lock.articles['autopilot-flawed-leftovers']!.approved).toBeUndefined();
    const report = await readFile(path.join(dir, 'review.md'), 'utf8');
    const waiting = section(report, 'Waiting for review');
    expect(waiting).toContain('`autopilot-flawed-leftovers`');
    expect(waiting).toContain('error finding');
    expect(waiting).not.toContain('`autopilot-clean-article`');
    expect(waiting).toContain('approve <slug>');
    const flawed = section(report, 'New and refreshed').split('\n').findIndex((line) => line.includes('`autopilot-flawed-leftovers`'));
    expect(section(report, 'New and refreshed').split('\n')[flawed + 1]).toMatch(/^ {2}- \*\*error\*\* writer_leftover: /);
  });

  it('should write a report with the sections docs/autopilot.md documents, in order, and no secret', async () => {
    const guide = await readFile(path.join(import.meta.dirname, '../../docs/autopilot.md'), 'utf8');
    const documented = section(guide, 'The report');
    const listed = [...documented.matchAll(/^\d+\. `## ([^`]+)`/gm)].map((match) => match[1]);
    expect(listed).toEqual([...REPORT_SECTIONS]);
    expect(documented).toMatch(/^\d+\. `# Articles: /m);

    const dir = await project(manifestYaml(['autopilot report sections']));
    const result = await run(dir, '--report', 'a.md', '--report', 'b.md');
    expect(result.code, result.stderr).toBe(6);
    const report = await readFile(path.join(dir, 'a.md'), 'utf8');
    expect(await readFile(path.join(dir, 'b.md'), 'utf8')).toBe(report);
    expect(report.startsWith('# Articles: ')).toBe(true);
    expect(headings(report)).toEqual([...REPORT_SECTIONS]);
    expect(report).not.toContain(SECRET_KEY);
    expect(report).not.toMatch(/<(p|h1|h2|div|article)\b/);
    expect(result.stdout).toContain('Report written to');
  });

  it('should leave what is unfinished at --timeout as still being written, and have the next run poll it without creating again', async () => {
    const keywords = ['slow article one', 'slow article two'];
    const dir = await project(manifestYaml(keywords));
    emulator.pause();
    let first: CliResult;
    try {
      first = await run(dir, '--timeout', '300ms', '--report', 'first.md');
    } finally {
      emulator.resume();
    }
    expect(first.code, first.stderr).toBe(6);
    expect(first.stdout).toContain('waiting for 2 articles (up to 300ms)');
    const still = section(await readFile(path.join(dir, 'first.md'), 'utf8'), 'Still being written');
    for (const slug of ['slow-article-one', 'slow-article-two']) expect(still).toContain(`\`${slug}\``);
    await emulator.settle();

    const createsBefore = createRequests();
    const second = await run(dir, '--report', 'second.md');
    expect(second.code, second.stderr).toBe(6);
    expect(createRequests()).toBe(createsBefore);
    expect(createdKeywords(keywords)).toEqual(keywords);
    const report = await readFile(path.join(dir, 'second.md'), 'utf8');
    expect(section(report, 'New and refreshed')).toContain('`slow-article-one`');
    expect(section(report, 'Still being written')).toContain('none');
    expect((await run(dir)).code).toBe(0);
  });

  it('should stop cleanly on SIGTERM while waiting (exit 143), every id kept, and the next run create nothing again', async () => {
    const keywords = ['cancelled job one', 'cancelled job two'];
    const dir = await project(manifestYaml(keywords));
    emulator.pause();
    let stopped: CliResult;
    try {
      const child = spawnCli(RUN, { cwd: dir, env: env() });
      await child.waitFor(/^waiting for 2 articles/);
      child.process.kill('SIGTERM');
      stopped = await child.done;
    } finally {
      emulator.resume();
    }
    expect(stopped.code, stopped.stderr).toBe(143);
    expect(stopped.stderr).toContain('Stopped.');
    expect(stopped.stderr).not.toContain('    at ');
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')) as { articles: Record<string, { status: string; articleId?: string }> };
    for (const slug of ['cancelled-job-one', 'cancelled-job-two']) expect(lock.articles[slug]).toMatchObject({ status: 'pending', articleId: expect.any(String) });
    await emulator.settle();
    const createsBefore = createRequests();
    const next = await run(dir);
    expect(next.code, next.stderr).toBe(6);
    expect(createRequests()).toBe(createsBefore);
    expect(createdKeywords(keywords)).toEqual(keywords);
  });

  it('should print one JSON document with --json, the progress lines on stderr', async () => {
    const dir = await project(manifestYaml(['autopilot json one']));
    const result = await run(dir, '--json');
    expect(result.code, result.stderr).toBe(6);
    const document = JSON.parse(result.stdout) as { command: string; exitCode: number; outcome: string; articles: { slug: string; title: string }[]; spending: { runArticles: number } };
    expect(document).toMatchObject({ command: 'autopilot', exitCode: 6, outcome: 'changes', spending: { runArticles: 1 } });
    expect(document.articles.map((a) => a.slug)).toEqual(['autopilot-json-one']);
    expect(result.stderr).toMatch(/^created autopilot-json-one \S+$/m);
  });

  it('should refuse a report path that cannot be written before anything is spent (exit 2)', async () => {
    const dir = await project(manifestYaml(['autopilot never created']));
    const requestsBefore = emulator.requests.length;
    const result = await run(dir, '--report', 'no-such-folder/report.md');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--report no-such-folder/report.md');
    expect(result.stderr).toContain('does not exist');
    expect(result.stderr).not.toContain('    at ');
    expect(emulator.requests.length).toBe(requestsBefore);
    await expect(stat(path.join(dir, 'articles.lock.json'))).rejects.toThrow();
  });

  it('should refuse to run without a service and without --offline (exit 2), never falling back to placeholder text', async () => {
    const dir = await project(manifestYaml(['autopilot no service']));
    const result = await runCliInProcess(RUN, { cwd: dir, env: { ARTICLE_LOADER_NOW: NOW } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--offline');
    await expect(stat(path.join(dir, 'articles.lock.json'))).rejects.toThrow();
  });

  it('should select and report with --dry-run, and create nothing', async () => {
    const keywords = ['dry run one', 'dry run two'];
    const dir = await project(manifestYaml(keywords));
    const requestsBefore = emulator.requests.length;
    const result = await run(dir, '--dry-run', '--budget', '1');
    expect(result.code, result.stderr).toBe(7);
    expect(emulator.requests.length).toBe(requestsBefore);
    expect(result.stdout).toContain('# Articles: dry run, would create 1');
    expect(section(result.stdout, 'Left for the next run')).toContain('`dry-run-two` (new): held back by the per-run cap');
    await expect(stat(path.join(dir, 'articles.lock.json'))).rejects.toThrow();
  });
});

describe("the manifest's caps in sync", () => {
  it('should take budget.perRun as the run budget unless --budget is given, refusing a run over it before any create', async () => {
    const keywords = ['per run one', 'per run two'];
    const dir = await project(`budget:\n  perRun: 1\n${manifestYaml(keywords)}`);
    const createsBefore = createRequests();
    const refused = await runCliInProcess(['sync', '--poll-interval', '20ms'], { cwd: dir, env: env() });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('over the budget of 1 per run');
    expect(createRequests()).toBe(createsBefore);
    const allowed = await runCliInProcess(['sync', '--poll-interval', '20ms', '--budget', '2'], { cwd: dir, env: env() });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(createdKeywords(keywords)).toHaveLength(2);
  });

  it('should refuse a sync past what budget.perMonth leaves this month (exit 3), creating nothing, while plan says so', async () => {
    const keywords = ['per month one', 'per month two', 'per month three'];
    const dir = await project(`budget:\n  perMonth: 2\n${manifestYaml(keywords.slice(0, 1))}`);
    expect((await runCliInProcess(['sync', '--poll-interval', '20ms'], { cwd: dir, env: env() })).code).toBe(0);
    await writeFile(path.join(dir, 'articles.yaml'), `budget:\n  perMonth: 2\n${manifestYaml(keywords)}`);
    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'));
    const createsBefore = createRequests();
    const refused = await runCliInProcess(['sync', '--poll-interval', '20ms'], { cwd: dir, env: env() });
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('monthly cap (budget.perMonth: 2) leaves 1');
    expect(createRequests()).toBe(createsBefore);
    expect(await readFile(path.join(dir, 'articles.lock.json'))).toEqual(lockBefore);
    const plan = await runCliInProcess(['plan'], { cwd: dir, env: env() });
    expect(plan.stdout).toContain('Over the monthly cap');
  });
});
