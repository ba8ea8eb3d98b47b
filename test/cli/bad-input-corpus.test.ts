// Every bad input as a stranger would meet it: the command line, a finished site, a live service. One clear error, no stack, nothing sent, the lock file untouched.
// Every case runs through the bin's own `main` in this process; every SAMPLE_EVERY-th case also through the built bin in a child, which must answer the same.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { requestHash, type LockFile } from '../../src/sync/index.js';
import { buildCli, EMULATOR_ACCOUNTS, expectNoSecret, manifestYaml, runCli, serviceEnv, type CliResult } from './cli-harness.js';
import { runCliInProcess } from './in-process-cli.js';

const BAD_MANIFESTS = fileURLToPath(new URL('../../fixtures/manifests/bad/', import.meta.url));
const KEYWORDS = ['corpus first article', 'corpus second article'];

interface Expectation {
  line: number | null;
  entry: string | null;
  field: string | null;
  expect: string[];
}

interface Case {
  name: string;
  /** Files to write into the finished site (replacing its own). */
  files: Record<string, string | Buffer>;
  args: string[];
  exitCode: number;
  /** What the error must say: file, entry, field, problem. */
  says: string[];
}

let emulator: RunningEmulator;
let template: string;
let finishedLock: LockFile;
const results = new Map<string, { result: CliResult; lockBefore: Buffer; lockAfter: Buffer; requests: number; bin?: CliResult }>();

/** Every so many cases, one also runs through the bin in a child process (the first case, then a spread over the kinds). */
const SAMPLE_EVERY = 12;

function manifestCases(): Case[] {
  const expectations = JSON.parse(readFileSync(path.join(BAD_MANIFESTS, 'expected.json'), 'utf8')) as Record<string, Expectation>;
  return Object.entries(expectations).map(([file, expected]) => ({
    name: `manifest ${file}`,
    files: { [file]: readFileSync(path.join(BAD_MANIFESTS, file)) },
    args: ['-m', file],
    exitCode: 2,
    says: [
      expected.line === null ? file : `${file}:${expected.line}`,
      ...(expected.entry === null ? [] : [expected.entry]),
      ...(expected.field === null ? [] : [`→ ${expected.field}: `]),
      ...expected.expect,
    ],
  }));
}

/** Lock files that parse but lie, or do not parse: each stops the run naming the slug and the fix. */
function lockCases(): Case[] {
  const text = `${JSON.stringify(finishedLock, null, 2)}\n`;
  const [first, second] = Object.keys(finishedLock.articles) as [string, string];
  const entry = finishedLock.articles[first]!;
  const edited = (mutate: (lock: LockFile) => void): string => {
    const lock = structuredClone(finishedLock);
    mutate(lock);
    return `${JSON.stringify(lock, null, 2)}\n`;
  };
  const lockCase = (name: string, lock: string, says: string[]): Case => ({ name: `lock file: ${name}`, files: { 'articles.lock.json': lock }, args: [], exitCode: 1, says: ['articles.lock.json', ...says] });
  const flipped = entry.hash.slice(0, -1) + (entry.hash.endsWith('0') ? '1' : '0');
  return [
    lockCase('one hex digit of a hash changed', text.replace(entry.hash, flipped), ['request_hash_mismatch', `"${first}"`, 'git checkout']),
    lockCase('a hash of another request', edited((lock) => (lock.articles[first]!.hash = requestHash({ targetKeyword: 'something else' }))), ['request_hash_mismatch', `"${first}"`]),
    lockCase('a recorded request for another keyword', edited((lock) => ((lock.articles[first]!.request as Record<string, unknown>).targetKeyword = 'other')), ['request_hash_mismatch', `"${first}"`]),
    lockCase('a slug given twice', text.replace('"articles": {\n', `"articles": {\n    "${first}": ${JSON.stringify(entry)},\n`), ['duplicate_key', `"${first}"`, 'line 4']),
    lockCase('a field given twice', text.replace(`"keyword": "${entry.keyword}",`, `"keyword": "${entry.keyword}",\n      "keyword": "${entry.keyword}",`), ['duplicate_key', `"keyword" of "${first}"`]),
    lockCase('two entries swapping their outputs', edited((lock) => {
      const a = lock.articles[first]!;
      const b = lock.articles[second]!;
      [a.output, b.output] = [b.output, a.output];
    }), ['output_mismatch', `"${first}"`]),
    lockCase('merge-conflict markers', `<<<<<<< HEAD\n${text}=======\n${text}>>>>>>> main\n`, ['merge-conflict markers']),
    lockCase('cut in half', text.slice(0, text.length / 2), ['is not valid JSON']),
    lockCase('an unknown status', text.replace('"status": "finished"', '"status": "done"'), ['status']),
    lockCase('a future version', text.replace('"version": 1', '"version": 99'), ['version 99', 'Upgrade astro-article-loader']),
    lockCase('a version too large for a number', text.replace('"version": 1', '"version": 1e999'), ['has version Infinity']),
    lockCase('an entry without its keyword', edited((lock) => delete (lock.articles[first] as Partial<typeof entry>).keyword), [`articles["${first}"].keyword is missing`]),
    lockCase('an entry whose slug climbs out', edited((lock) => (lock.articles['../evil'] = { ...entry, keyword: 7 as unknown as string })), ['articles["../evil"].keyword', 'expected string']),
    lockCase('a finished entry without output', edited((lock) => delete lock.articles[first]!.output), ['output is required when status is "finished"']),
    lockCase('not an object', '[]\n', ['is not a JSON object']),
  ];
}

/** Command-line mistakes: exit 2, a message, nothing sent. */
function usageCases(): Case[] {
  const usage = (name: string, args: string[], says: string[]): Case => ({ name: `usage: ${name}`, files: {}, args, exitCode: 2, says });
  return [
    usage('a key given as a flag', ['--api-key', 'sk-123456'], ['never taken as a flag']),
    usage('an unknown flag', ['--bugdet', '3'], ['--bugdet']),
    usage('a budget that is not a number', ['--budget', 'lots'], ['--budget must be a whole number']),
    usage('a manifest that does not exist', ['-m', 'nope.yaml'], ['nope.yaml', 'does not exist']),
    usage('a manifest with an unknown extension', ['-m', 'articles.txt'], ['articles.txt', 'a manifest is .yaml, .yml, .json or .csv']),
    usage('a timeout that is no duration', ['--timeout', 'soon'], ['--timeout must be a duration']),
    usage('a poll interval under a millisecond (0 ms once rounded)', ['--poll-interval', '0.4ms'], ['--poll-interval must be a duration', '"0.4ms"']),
  ];
}

async function runCase(testCase: Case): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aal-corpus-'));
  try {
    await cp(template, dir, { recursive: true });
    for (const [name, content] of Object.entries(testCase.files)) await writeFile(path.join(dir, name), content);
    const lockBefore = await readFile(path.join(dir, 'articles.lock.json'));
    const requests = emulator.requests.length;
    const result = await runCliInProcess(['sync', ...testCase.args], { cwd: dir, env: serviceEnv(emulator.url) });
    // Through the bin too: the same answer, and still no request and the lock file untouched (checked below with the rest).
    const bin = CASES.indexOf(testCase) % SAMPLE_EVERY === 0 ? await runCli(['sync', ...testCase.args], { cwd: dir, env: serviceEnv(emulator.url) }) : undefined;
    results.set(testCase.name, { result, lockBefore, lockAfter: await readFile(path.join(dir, 'articles.lock.json')), requests: emulator.requests.length - requests, ...(bin ? { bin } : {}) });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const CASES = [...usageCases()];

describe('the bad-input corpus, through the CLI', () => {
  // About 160 runs, most in this process and every twelfth through the bin as well: the same bound as the manifest corpus, for a loaded machine.
  beforeAll(async () => {
    await buildCli();
    emulator = await startEmulator({ timing: 'instant', accounts: EMULATOR_ACCOUNTS });
    template = await mkdtemp(path.join(tmpdir(), 'aal-corpus-template-'));
    await writeFile(path.join(template, 'articles.yaml'), manifestYaml(KEYWORDS));
    const synced = await runCli(['sync', '--poll-interval', '20ms'], { cwd: template, env: serviceEnv(emulator.url) });
    expect(synced.code, synced.stderr).toBe(0);
    finishedLock = JSON.parse(await readFile(path.join(template, 'articles.lock.json'), 'utf8')) as LockFile;
    CASES.push(...manifestCases(), ...lockCases());
    const limit = pLimit(3);
    await Promise.all(CASES.map((testCase) => limit(() => runCase(testCase))));
    console.log(`[corpus] ${CASES.length} bad inputs through \`sync\`: ${[...results.values()].filter((r) => r.requests === 0).length} made no request`);
  }, 600_000);

  afterAll(async () => {
    await emulator?.stop();
    await rm(template, { recursive: true, force: true });
  });

  it('should hold at least 60 bad inputs: manifests, lock files and command lines', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(CASES.filter((c) => c.name.startsWith('lock file')).length).toBeGreaterThanOrEqual(10);
  });

  it('should answer every bad input with its exit code, one message naming file, entry and field, no stack, no request, the lock file untouched', () => {
    const failures: string[] = [];
    for (const testCase of CASES) {
      const outcome = results.get(testCase.name);
      if (outcome === undefined) {
        failures.push(`${testCase.name}: did not run`);
        continue;
      }
      const { result, lockBefore, lockAfter, requests } = outcome;
      const text = `${result.stdout}${result.stderr}`;
      const problems = [
        result.code === testCase.exitCode ? '' : `exit ${result.code}, not ${testCase.exitCode}`,
        ...testCase.says.filter((fragment) => !text.includes(fragment)).map((fragment) => `does not say ${JSON.stringify(fragment)}`),
        /^\s+at /m.test(text) ? 'printed a stack trace' : '',
        /unexpected error/.test(text) ? 'called it an unexpected error' : '',
        requests === 0 ? '' : `made ${requests} requests`,
        lockBefore.equals(lockAfter) ? '' : 'changed the lock file',
      ].filter((problem) => problem !== '');
      if (problems.length > 0) failures.push(`${testCase.name}: ${problems.join('; ')}\n${text.slice(0, 600)}`);
      expectNoSecret(result);
    }
    expect(failures).toEqual([]);
  });

  it('should answer alike through the bin in a child process and through its main in this one, in every sampled case', () => {
    const sampled = CASES.filter((_, index) => index % SAMPLE_EVERY === 0);
    expect(sampled.length).toBeGreaterThanOrEqual(8);
    for (const testCase of sampled) {
      const outcome = results.get(testCase.name);
      expect(outcome?.bin, `${testCase.name}: not run through the bin`).toBeDefined();
      const { code, stdout, stderr } = outcome!.bin!;
      expect({ code, stdout, stderr }, testCase.name).toEqual({ code: outcome!.result.code, stdout: outcome!.result.stdout, stderr: outcome!.result.stderr });
    }
  });

  it('should keep the manifest corpus directory as the single source of manifest cases', async () => {
    const files = (await readdir(BAD_MANIFESTS)).filter((name) => name !== 'expected.json');
    expect(CASES.filter((c) => c.name.startsWith('manifest ')).length).toBe(files.length);
  });
});
