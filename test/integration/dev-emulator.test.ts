// Offline mode under `astro dev` with articles(): one embedded emulator for the whole session, stopped with the dev server.
//
// The dev server runs through Astro's JavaScript API in a child process, so stopping it (which runs
// astro:server:done) and the process ending are two separate moments: the emulator's port must be
// closed at the first one, not merely because the process died.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts, buildPackage, ChildOutput, childEnv, createSite, freePort, type Site } from './astro-project.js';

const CHILD = fileURLToPath(new URL('./dev-server-child.mjs', import.meta.url));
const EMULATOR_LINE = /the embedded emulator at (http:\/\/127\.0\.0\.1:\d+) writes the articles/g;

let site: Site;
let child: ChildProcessWithoutNullStreams;
const output = new ChildOutput();
let exit: string | undefined;

const gone = (): string | undefined => exit;

describe('articles() in astro dev, offline', () => {
  beforeAll(async () => {
    await buildPackage();
    site = await createSite('toolbar');
    child = spawn(process.execPath, [CHILD, site.root, String(await freePort())], { cwd: site.root, env: childEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    output.follow(child);
    child.once('exit', (code, signal) => {
      exit = `the dev server process exited (${code ?? signal})`;
      output.append('');
    });
    await output.waitFor(/dev-child: ready/, { failed: gone });
  });

  afterAll(async () => {
    // The child is undefined when the set-up failed before it was started.
    if (exit === undefined && child !== undefined) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await site?.cleanup();
  });

  it('should keep one embedded emulator for the whole dev session', async () => {
    await appendFile(join(site.root, 'articles.yaml'), '  - aeropress recipe\n');
    await output.waitFor(/"aeropress-recipe" is ready/, { failed: gone });
    // The loader lets go of the emulator once nothing is being written; the integration keeps it for the next edit.
    await appendFile(join(site.root, 'articles.yaml'), '  - moka pot\n');
    await output.waitFor(/"moka-pot" is ready/, { failed: gone });
    const started = [...output.text.matchAll(EMULATOR_LINE)].map((match) => match[1]);
    expect(started).toHaveLength(1);
    expect(await accepts(started[0]!)).toBe(true);
  }, 120_000);

  it('should close the embedded emulator\'s port when the dev server stops, while the process still runs', async () => {
    const url = [...output.text.matchAll(EMULATOR_LINE)][0]?.[1];
    expect(url).toBeDefined();
    expect(await accepts(url!)).toBe(true);
    child.stdin.write('stop\n');
    await output.waitFor(/dev-child: stopped/, { failed: gone });
    expect(exit).toBeUndefined();
    expect(await accepts(url!)).toBe(false);
  }, 60_000);

  it('should leave nothing behind that keeps the process alive', async () => {
    child.stdin.end();
    await new Promise<void>((resolve) => (exit === undefined ? child.once('exit', () => resolve()) : resolve()));
    expect(child.exitCode).toBe(0);
  }, 60_000);
});
