// What every command shares: --help with examples, usage errors (as JSON too), colour rules, errors without stacks unless asked.
// Through the bin's own `main` in this process (test/cli/in-process-cli.ts); the top-level help, a usage error as JSON and a coloured plan also through the built bin in a child, which must answer alike.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, manifestYaml, tempProject } from './cli-harness.js';
import { runCliBothWays, runCliInProcess } from './in-process-cli.js';

const COMMANDS = ['plan', 'sync', 'status', 'prune', 'verify'];
const ANSI = /\u001b\[/;
let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  await buildCli();
  ({ dir, cleanup } = await tempProject({ 'articles.yaml': manifestYaml(['usage keyword']) }));
});

afterAll(async () => {
  await cleanup?.();
});

describe('astro-article-loader commands', () => {
  it('should list every command in the top-level help, alike through the bin', async () => {
    const { inProcess: result, bin } = await runCliBothWays(['--help'], { cwd: dir });
    expect(bin).toEqual(result);
    expect(result.code).toBe(0);
    for (const command of [...COMMANDS, 'emulator']) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    // The declared list, as each command's --help gives it.
    for (const code of ['130  interrupted', '143  stopped by SIGTERM']) expect(result.stdout).toContain(code);
  });

  it('should refuse options given before any command with exit 2, as JSON with --json, instead of the help and exit 0', async () => {
    for (const args of [['--bogus'], ['--frozen'], ['--budget', '3', 'sync']]) {
      const result = await runCliInProcess(args, { cwd: dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(`a command comes first, before its options: "${args[0]}" is not a command`);
      expect(result.stdout).toBe('');
    }
    const json = await runCliInProcess(['--json'], { cwd: dir });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ schemaVersion: 1, command: null, exitCode: 2, error: { code: 'usage' } });
    expect(json.stderr).toBe('');
  });

  it('should give each command a --help with examples and the exit codes', async () => {
    for (const command of COMMANDS) {
      const result = await runCliInProcess([command, '--help'], { cwd: dir });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Usage: astro-article-loader ${command}`);
      expect(result.stdout).toContain('Examples:');
      expect(result.stdout).toContain('130  interrupted');
    }
  });

  it('should reject an unknown flag with exit 2, as JSON with --json (alike through the bin)', async () => {
    const text = await runCliInProcess(['plan', '--frozn'], { cwd: dir });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain('unknown option --frozn; did you mean --frozen?');
    expect(text.stderr).toContain('astro-article-loader plan --help');
    const { inProcess: json, bin } = await runCliBothWays(['verify', '--json', '--bogus'], { cwd: dir });
    expect(bin).toEqual(json);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ schemaVersion: 1, command: 'verify', exitCode: 2, error: { code: 'usage' } });
  });

  it('should refuse flags that contradict each other with exit 2, naming both', async () => {
    const status = await runCliInProcess(['status', '--refresh-all', '--no-refresh'], { cwd: dir });
    expect(status.code).toBe(2);
    expect(status.stderr).toContain('--refresh-all and --no-refresh contradict each other; pass one.');
    const sync = await runCliInProcess(['sync', '--offline', '--base-url', 'http://127.0.0.1:9'], { cwd: dir });
    expect(sync.code).toBe(2);
    expect(sync.stderr).toContain('--offline and --base-url contradict each other');
  });

  it('should refuse an ARTICLE_LOADER_NOW that is not a date with exit 2, naming it, without a stack', async () => {
    const result = await runCliInProcess(['plan'], { cwd: dir, env: { ARTICLE_LOADER_NOW: 'tomorrow' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ARTICLE_LOADER_NOW="tomorrow" is not a date and time');
    expect(result.stderr).not.toMatch(/unexpected error|\n\s+at /);
  });

  it('should suggest the command or flag meant: plna → plan, --bugdet → --budget', async () => {
    const command = await runCliInProcess(['plna'], { cwd: dir });
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "plna"; did you mean "plan"?');
    const flag = await runCliInProcess(['sync', '--bugdet', '3'], { cwd: dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown option --bugdet; did you mean --budget?');
    const far = await runCliInProcess(['plan', '--zzzzzz'], { cwd: dir });
    expect(far.stderr).toContain("Unknown option '--zzzzzz'");
  });

  it('should colour only when allowed: FORCE_COLOR on (alike through the bin), NO_COLOR, --no-color and --json off', async () => {
    const { inProcess: coloured, bin } = await runCliBothWays(['plan'], { cwd: dir, env: { FORCE_COLOR: '1' } });
    expect(bin).toEqual(coloured);
    expect(coloured.stdout).toMatch(ANSI);
    expect((await runCliInProcess(['plan'], { cwd: dir, env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toMatch(ANSI);
    expect((await runCliInProcess(['plan', '--no-color'], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).not.toMatch(ANSI);
    expect((await runCliInProcess(['plan', '--json'], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).not.toMatch(ANSI);
  });

  it('should print an unreadable lock file as a message naming it, with a stack only under --verbose', async () => {
    const { dir: broken, cleanup: remove } = await tempProject({ 'articles.yaml': manifestYaml(['eisdir keyword']) });
    try {
      await mkdir(path.join(broken, 'articles.lock.json'));
      const quiet = await runCliInProcess(['plan'], { cwd: broken });
      expect(quiet.code).toBe(1);
      expect(quiet.stderr).toContain('is a directory, not a file');
      expect(quiet.stderr).not.toContain('    at ');
      const verbose = await runCliInProcess(['plan', '--verbose'], { cwd: broken });
      expect(verbose.stderr).toContain('    at ');
    } finally {
      await remove();
    }
  });
});
