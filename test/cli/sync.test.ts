// `sync` off a terminal: paid once, spending rules, configuration errors, line progress, --json, no secret.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); a run that reuses everything also through the built bin in a child, which must answer alike but for the time taken, and the --json case through the bin alone.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, runCli, SECRET_KEY, serviceEnv, tempProject, type CliResult } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';
import { closedPort } from '../api/scripted-server.js';

let emulator: RunningEmulator;
const cleanups: (() => Promise<void>)[] = [];
/** Polls fast: the emulator writes instantly, and the default 5 s first poll would only slow the suite. */
const FAST = ['--poll-interval', '20ms'];

beforeAll(async () => {
  await buildCli();
  emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
});

afterEach(() => emulator.setFaults(undefined));

afterAll(async () => {
  await emulator?.stop();
  for (const cleanup of cleanups) await cleanup();
});

async function project(keywords: string[]): Promise<string> {
  const { dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(keywords) });
  cleanups.push(cleanup);
  return dir;
}

/** The one thing two runs of the same sync may print differently: how long it took ("Synced 3 articles in 0.1s: …"). */
function withoutDuration(result: CliResult): CliResult {
  return { ...result, stdout: result.stdout.replace(/^([✓✗] Synced .*?) in [^:]+:/gm, '$1 in <duration>:') };
}

function created(keywords: string[]): number {
  return keywords.reduce((sum, keyword) => sum + emulator.ledger.creationsForKeyword(keyword).length, 0);
}

describe('astro-article-loader sync', () => {
  it('should create each missing article once, and make no request on the next run, alike through the bin', async () => {
    const keywords = ['cold brew ratio', 'pour over guide', 'espresso grind'];
    const dir = await project(keywords);
    const first = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Synced 3 articles');
    expect(first.stdout).toContain('3 created');
    expect(created(keywords)).toBe(3);
    expectNoSecret(first);

    const requestsBefore = emulator.requests.length;
    const { inProcess: second, bin } = await runCliBothWays(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(withoutDuration(bin)).toEqual(withoutDuration(second));
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('3 reused');
    expect(emulator.requests.length).toBe(requestsBefore);
    expect(created(keywords)).toBe(3);
  });

  it('should print one plain line per state change off a terminal, never one per poll', async () => {
    const keywords = ['matcha latte', 'chai concentrate'];
    const dir = await project(keywords);
    emulator.setTiming({ queueDelayMs: 0, writingMs: 600 });
    try {
      const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('\u001b[');
      const lines = result.stderr.split('\n').filter((line) => line !== '');
      for (const slug of ['matcha-latte', 'chai-concentrate']) {
        expect(lines.filter((line) => line.startsWith('created ') && line.includes(slug))).toHaveLength(1);
        expect(lines.filter((line) => line.startsWith('finished ') && line.includes(slug))).toHaveLength(1);
        const statuses = lines.filter((line) => line.startsWith('status ') && line.includes(slug));
        expect(new Set(statuses).size).toBe(statuses.length);
      }
    } finally {
      emulator.setTiming('instant');
    }
  });

  it('should report in the documented --json shape, through the bin', async () => {
    const dir = await project(['oolong brewing']);
    // Through the bin: a sync that creates and waits, as a child process runs it.
    const result = await runCli(['sync', '--json', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({
      schemaVersion: 1,
      command: 'sync',
      exitCode: 0,
      lockFile: path.join(dir, 'articles.lock.json'),
      cacheDir: path.join(dir, 'articles.cache'),
      offline: false,
      budget: 25,
      frozen: false,
      totals: { articles: 1, created: 1, finished: 1, failed: 0 },
      retries: { total: 0, byKind: {} },
      orphans: [],
    });
    const lock = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8'));
    expect(document.articles).toEqual([
      {
        slug: 'oolong-brewing',
        keyword: 'oolong brewing',
        action: 'create',
        outcome: 'finished',
        articleId: lock.articles['oolong-brewing'].articleId,
        reason: 'new entry',
        error: null,
        serving: { articleId: lock.articles['oolong-brewing'].articleId, current: true, emulator: false },
        emulator: false,
      },
    ]);
  });

  it('should refuse to create in frozen mode when CI is set, and exit 3 having created nothing', async () => {
    const keywords = ['frozen keyword one', 'frozen keyword two'];
    const dir = await project(keywords);
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: { ...serviceEnv(emulator.url), CI: 'true' } });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Frozen mode: 2 article(s) would be created');
    expect(result.stderr).toContain('frozen-keyword-one');
    expect(created(keywords)).toBe(0);
    expect(result.stderr).not.toContain('    at ');
  });

  it('should create when CI says false, as the loader reads it', async () => {
    const dir = await project(['ci false keyword']);
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: { ...serviceEnv(emulator.url), CI: ' False ' } });
    expect(result.code).toBe(0);
    expect(created(['ci false keyword'])).toBe(1);
  });

  it('should stop over the budget before any create, saying how to raise it', async () => {
    const keywords = ['budget one', 'budget two', 'budget three'];
    const dir = await project(keywords);
    const result = await runCliInProcess(['sync', '--budget', '2', '--json', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ command: 'sync', exitCode: 3, error: { code: 'over_budget', count: 3, budget: 2 } });
    expect(JSON.parse(result.stdout).error.message).toContain('--budget 3');
    expect(created(keywords)).toBe(0);
  });

  it('should say how to configure the service when none is, and sync offline with --offline', async () => {
    const dir = await project(['offline keyword']);
    const unconfigured = await runCliInProcess(['sync', ...FAST], { cwd: dir });
    expect(unconfigured.code).toBe(2);
    expect(unconfigured.stderr).toContain('ARTICLES_API_KEY');
    expect(unconfigured.stderr).toContain('astro-article-loader emulator');
    expect(unconfigured.stderr).toContain('--offline');

    const offline = await runCliInProcess(['sync', '--offline'], { cwd: dir });
    expect(offline.code).toBe(0);
    expect(offline.stderr).toContain('Offline: an embedded emulator');
    expect(offline.stdout).toContain('1 created');
    expect(created(['offline keyword'])).toBe(0);
  });

  it('should mark --offline articles as placeholders and create them again, within the rules, against the real service', async () => {
    const dir = await project(['placeholder keyword']);
    const offline = await runCliInProcess(['sync', '--offline', '--json'], { cwd: dir });
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout).articles[0]).toMatchObject({ slug: 'placeholder-keyword', emulator: true });
    expect(JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles['placeholder-keyword'].emulator).toBe(true);

    const plan = await runCliInProcess(['plan'], { cwd: dir });
    expect(plan.stdout).toMatch(/create\s+placeholder-keyword\s+written by the offline emulator: placeholder text, not a paid article/);
    const frozen = await runCliInProcess(['sync', '--frozen', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(frozen.code).toBe(3);
    expect(created(['placeholder keyword'])).toBe(0);

    const online = await runCliInProcess(['sync', '--json', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(online.code).toBe(0);
    expect(JSON.parse(online.stdout).articles[0]).toMatchObject({ action: 'create', outcome: 'finished', emulator: false });
    expect(created(['placeholder keyword'])).toBe(1);
  });

  it('should refuse an API key given as a flag without repeating it', async () => {
    const dir = await project(['key flag keyword']);
    for (const args of [['sync', '--api-key', SECRET_KEY], ['sync', `--api-key=${SECRET_KEY}`], ['plan', '--token', SECRET_KEY]]) {
      const result = await runCliInProcess(args, { cwd: dir, env: { ARTICLES_API_URL: emulator.url } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('never taken as a flag');
      expect(result.stderr).toContain('ARTICLES_API_KEY');
      expectNoSecret(result);
    }
    expect(created(['key flag keyword'])).toBe(0);
  });

  it('should list failed articles, exit 1 and not re-create them unless --retry-failed', async () => {
    const dir = await project(['doomed keyword']);
    emulator.setFaults({ failedArticles: 1 });
    const failed = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/doomed-keyword failed — generation_failed/);
    expect(failed.stdout).toContain('Next: --retry-failed creates failed articles again (paid).');
    emulator.setFaults(undefined);

    const again = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(again.code).toBe(1);
    expect(created(['doomed keyword'])).toBe(1);
    const retried = await runCliInProcess(['sync', '--retry-failed=doomed-keyword', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(retried.code).toBe(0);
    expect(created(['doomed keyword'])).toBe(2);
  });

  it('should refuse a service address with a password, a query or a spaced key before anything is sent, showing no secret', async () => {
    const dir = await project(['misconfigured keyword']);
    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'), 'utf8').catch(() => undefined);
    const requests = emulator.requests.length;
    const withPassword = emulator.url.replace('http://', `http://user:${SECRET_KEY}@`);
    const cases = [
      { env: { ARTICLES_API_URL: withPassword, ARTICLES_API_KEY: 'emulator-dev-key' }, says: 'ARTICLES_API_URL must not contain a user name or password' },
      { env: { ARTICLES_API_URL: `${emulator.url}/?key=${SECRET_KEY}`, ARTICLES_API_KEY: 'emulator-dev-key' }, says: 'ARTICLES_API_URL must not have a query or a fragment' },
      { env: { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: `${SECRET_KEY} two` }, says: 'ARTICLES_API_KEY contains spaces, line breaks or non-ASCII characters' },
    ];
    for (const { env, says } of cases) {
      const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(says);
      expect(result.stdout).toBe('');
      expectNoSecret(result);
    }
    expect(emulator.requests.length).toBe(requests);
    expect(await readFile(path.join(dir, 'articles.lock.json'), 'utf8').catch(() => undefined)).toBe(lockBefore);
  });

  it('should tell to run again, not to --retry-failed, when the service could not be reached and nothing was sent', async () => {
    const dir = await project(['unreached keyword']);
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(`http://127.0.0.1:${await closedPort()}`) });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/unreached-keyword failed — service_unreachable/);
    expect(result.stdout).toContain('Next: run sync again once the service answers (what it never received is not recorded and costs nothing).');
    expect(result.stdout).not.toContain('--retry-failed');
    expect(JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles).toEqual({});
  });

  it('should offer adopt, free, for an article the service keeps answering 404 for', async () => {
    const dir = await project(['forgotten keyword']);
    expect((await runCliInProcess(['sync', '--no-wait', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    emulator.reset();
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/forgotten-keyword failed — not_found: the service answered 404 for article [0-9a-f-]{36} 4 times in a row/);
    expect(result.stdout).toContain('an article the service answered 404 for, if you find it on its queue page, is attached again for free by `adopt <slug> <articleId>`');
    expect(emulator.ledger.creations).toHaveLength(0);
  });

  it('should point status at adopt, free, when an article recorded failed after 404s is known to the service again', async () => {
    const dir = await project(['found again keyword']);
    expect((await runCliInProcess(['sync', '--no-wait', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    const lockFile = path.join(dir, 'articles.lock.json');
    const lock = JSON.parse(await readFile(lockFile, 'utf8')) as { articles: Record<string, { articleId: string; status: string; error?: unknown }> };
    const entry = lock.articles['found-again-keyword']!;
    // As a run leaves it after four 404s in a row (src/sync/poll-loop.ts).
    Object.assign(entry, { status: 'failed', error: { code: 'not_found', message: 'the service answered 404 for it 4 times in a row' } });
    await writeFile(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
    const status = await runCliInProcess(['status'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(status.stdout).toContain(`found-again-keyword: recorded failed after the service answered 404, but the service knows its article again: \`astro-article-loader adopt found-again-keyword ${entry.articleId}\` attaches it (free).`);
    const adopted = await runCliInProcess(['adopt', 'found-again-keyword', entry.articleId], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(adopted.code, adopted.stderr).toBe(0);
    expect(JSON.parse(await readFile(lockFile, 'utf8')).articles['found-again-keyword']).toMatchObject({ status: 'finished', articleId: entry.articleId });
    expect(created(['found again keyword'])).toBe(1);
  });

  it('should keep the articles already paid for when the entries move into languages: plan says taken over, sync buys only the new language', async () => {
    const keywords = ['alpha widgets', 'beta gadgets'];
    const dir = await project(keywords);
    expect((await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    const before = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles as Record<string, { articleId: string }>;
    await writeFile(path.join(dir, 'articles.yaml'), manifestYaml(keywords, { languages: '[English, German]' }));
    const plan = await runCliInProcess(['plan', '--json'], { cwd: dir, env: serviceEnv(emulator.url) });
    const planned = JSON.parse(plan.stdout) as { articles: { slug: string; action: string; movedFrom: string | null }[]; orphans: unknown[] };
    expect(planned.articles.filter((a) => a.slug.startsWith('en/')).map((a) => [a.slug, a.action, a.movedFrom])).toEqual([
      ['en/alpha-widgets', 'reuse', 'alpha-widgets'],
      ['en/beta-gadgets', 'reuse', 'beta-gadgets'],
    ]);
    expect(planned.articles.filter((a) => a.action === 'create').map((a) => a.slug)).toEqual(['de/alpha-widgets', 'de/beta-gadgets']);
    expect(planned.orphans).toEqual([]);
    const text = await runCliInProcess(['plan'], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(text.stdout).toMatch(/en\/alpha-widgets\s+finished and cached; the lock entry of alpha-widgets, the same request \(its slug changed\): taken over, no create/);
    expect((await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    // The two English articles of the first sync, and the two German ones now (the same keywords, language German).
    expect(created(keywords)).toBe(4);
    const after = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles as Record<string, { articleId: string }>;
    expect(Object.keys(after).sort()).toEqual(['de/alpha-widgets', 'de/beta-gadgets', 'en/alpha-widgets', 'en/beta-gadgets']);
    expect(after['en/alpha-widgets']!.articleId).toBe(before['alpha-widgets']!.articleId);
  });

  it("should keep the slug a lock file records when the default for its script changes (no create, no move, the lock file unchanged), and move it on the owner's own change", async () => {
    const manifest = (slugs?: string) =>
      [...(slugs === undefined ? [] : ['translations:', `  slugs: ${slugs}`]), 'defaults:', '  languages: [English, Arabic]', 'articles:', '  - keyword: { English: drip coffee, Arabic: قهوة بالتقطير }', ''].join('\n');
    // `transliterate` spells Arabic as every earlier version did by default: the lock file of a site made before the rule per script.
    const { dir, cleanup } = await tempProject({ 'articles.yaml': manifest('transliterate') });
    cleanups.push(cleanup);
    expect((await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    const lockFile = path.join(dir, 'articles.lock.json');
    const lockText = await readFile(lockFile, 'utf8');
    expect(Object.keys(JSON.parse(lockText).articles).sort()).toEqual(['ar/qhwt-baltqtyr', 'en/drip-coffee']);

    await writeFile(path.join(dir, 'articles.yaml'), manifest());
    const requests = emulator.requests.length;
    const planned = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir, env: serviceEnv(emulator.url) })).stdout) as { articles: { slug: string; action: string; movedFrom: string | null }[]; orphans: unknown[] };
    expect(planned.articles.map((a) => [a.slug, a.action, a.movedFrom])).toEqual([
      ['en/drip-coffee', 'reuse', null],
      ['ar/qhwt-baltqtyr', 'reuse', null],
    ]);
    expect(planned.orphans).toEqual([]);
    const synced = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stdout).toContain('2 reused');
    expect(emulator.requests.length).toBe(requests);
    expect(await readFile(lockFile, 'utf8')).toBe(lockText);
    expect(created(['قهوة بالتقطير'])).toBe(1);

    // The owner asks for Unicode slugs: the article moves to its new id, still bought once.
    await writeFile(path.join(dir, 'articles.yaml'), manifest('unicode'));
    const moved = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir, env: serviceEnv(emulator.url) })).stdout) as { articles: { slug: string; action: string; movedFrom: string | null }[] };
    expect(moved.articles[1]).toMatchObject({ slug: 'ar/قهوة-بالتقطير', action: 'reuse', movedFrom: 'ar/qhwt-baltqtyr' });
  });

  it('should plan a damaged cached output as a fetch and fetch it again in sync, with one GET and no create', async () => {
    const dir = await project(['damaged output keyword']);
    expect((await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    const { output } = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles['damaged-output-keyword'] as { output: string };
    const file = path.join(dir, 'articles.cache', 'outputs', `${output.slice('sha256:'.length)}.json`);
    const good = await readFile(file, 'utf8');
    await writeFile(file, `${good}x`);
    const plan = JSON.parse((await runCliInProcess(['plan', '--json'], { cwd: dir, env: serviceEnv(emulator.url) })).stdout) as { articles: { action: string }[] };
    expect(plan.articles.map((a) => a.action)).toEqual(['fetch']);
    const requests = emulator.requests.length;
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // Said once, though the run reads the file twice (its plan outside the lock, then under it).
    expect((result.stdout + result.stderr).split('its content does not match its hash').length - 1).toBe(1);
    expect(emulator.requests.slice(requests).map((r) => r.method)).toEqual(['GET']);
    expect(await readFile(file, 'utf8')).toBe(good);
    expect(created(['damaged output keyword'])).toBe(1);
  });

  it('should give the words of an article created by an earlier run apart, as recorded, not as 0 billed', async () => {
    const dir = await project(['resumed keyword']);
    expect((await runCliInProcess(['sync', '--no-wait', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) })).code).toBe(0);
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(emulator.url) });
    expect(result.code, result.stderr).toBe(0);
    const entry = JSON.parse(await readFile(path.join(dir, 'articles.lock.json'), 'utf8')).articles['resumed-keyword'] as { words: number };
    expect(entry.words).toBeGreaterThan(0);
    expect(result.stdout).toContain(`Words: ${entry.words.toLocaleString('en-US')} recorded for the 1 article created before and finished in this run.`);
    expect(result.stdout).not.toContain('billed for the');
  });

  it('should sum up retries in one line instead of printing each', async () => {
    const dir = await project(['flaky poll one', 'flaky poll two']);
    // An emulator of its own, seeded: which polls fail then depends on this test alone, not on the requests of the tests before it.
    const flaky = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS, seed: 'sync-retries', faults: { routes: { getArticle: { serverErrors: 0.5 } } } });
    cleanups.push(() => flaky.stop());
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: serviceEnv(flaky.url) });
    expect(result.code).toBe(0);
    expect(flaky.requests.some((r) => r.fault === 'server_error')).toBe(true);
    expect(result.stdout).toMatch(/Requests: \d+ · \d+ retr(y|ies) \(\d+ × HTTP 500\)/);
    expect(result.stderr).not.toMatch(/HTTP 500|server_error|retr(y|ies)/i);
  });

  it('should explain a rejected key without printing it', async () => {
    const dir = await project(['wrong key keyword']);
    const result = await runCliInProcess(['sync', ...FAST], { cwd: dir, env: { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: `${SECRET_KEY}-revoked` } });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain('ARTICLES_API_KEY');
    expect(result.stdout + result.stderr).not.toContain(`${SECRET_KEY}-revoked`);
    expect(result.stderr).not.toContain('    at ');
  });
});
