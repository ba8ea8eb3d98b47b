// The command-line entry, compiled like the published bin and run as a child process.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChildOutput } from '../child-output.js';
import { buildPackage } from '../loader/astro-site.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/index.js');

// The package as published: dist/, built once per change of src/ by the harness every test shares.
beforeAll(() => buildPackage(), 120_000);

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawn(process.execPath, [bin, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function collect(child: ReturnType<typeof run>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** Resolves with the URL from the start-up line, once that line is complete (a chunk may end inside the port number). */
async function listening(child: ReturnType<typeof run>): Promise<string> {
  const line = await ChildOutput.of(child, 'the emulator').waitForLine(/listening on http:\/\/127\.0\.0\.1:\d+ /);
  return /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
}

describe('astro-article-loader emulator (CLI)', () => {
  it('should start with the shebang the bin needs', async () => {
    expect((await readFile(join(root, 'src/cli/index.ts'), 'utf8')).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('should serve the API with the development key and stop cleanly on SIGINT', async () => {
    const child = run(['emulator', '--port', '0', '--speed', 'instant'], { EMULATOR_API_KEYS: '' });
    const result = collect(child);
    const url = await listening(child);
    const created = await fetch(`${url}/api/articles/`, {
      method: 'POST',
      headers: { authorization: 'Bearer emulator-dev-key', 'content-type': 'application/json' },
      body: JSON.stringify({ targetKeyword: 'sourdough' }),
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toEqual({ articleId: expect.any(String) });
    child.kill('SIGINT');
    const { code, stdout } = await result;
    expect(code).toBe(0);
    expect(stdout).toContain('"emulator-dev-key" (public, not a secret)');
    expect(stdout).toContain('Emulator stopped.');
  });

  it('should take keys from EMULATOR_API_KEYS and never print them', async () => {
    const child = run(['emulator', '--port', '0', '--speed', 'instant'], { EMULATOR_API_KEYS: 'cli-secret-key-1,cli-secret-key-2' });
    const result = collect(child);
    const url = await listening(child);
    const ok = await fetch(`${url}/api/articles/abc`, { headers: { authorization: 'Bearer cli-secret-key-2' } });
    const dev = await fetch(`${url}/api/articles/abc`, { headers: { authorization: 'Bearer emulator-dev-key' } });
    expect([ok.status, dev.status]).toEqual([404, 401]);
    child.kill('SIGTERM');
    const { code, stdout, stderr } = await result;
    expect(code).toBe(0);
    expect(stdout).toContain('API keys: 2 configured (not shown)');
    expect(stdout + stderr).not.toContain('cli-secret-key');
  });

  it('should print help with examples', async () => {
    const { code, stdout } = await collect(run(['emulator', '--help']));
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: astro-article-loader emulator');
    expect(stdout).toContain('Examples:');
  });

  it('should exit 2 with a message for a bad flag', async () => {
    const { code, stderr } = await collect(run(['emulator', '--speed', 'warp']));
    expect(code).toBe(2);
    expect(stderr).toContain('--speed must be one of realtime, fast, instant');
  });

  it('should exit 2 for an unknown command', async () => {
    const { code, stderr } = await collect(run(['nope']));
    expect(code).toBe(2);
    expect(stderr).toContain('unknown command "nope"');
  });
});
