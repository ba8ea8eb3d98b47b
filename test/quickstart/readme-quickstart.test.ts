// The README's Quick start, copied literally into an empty folder: astro and the packed package installed from the registry
// and the tarball, an offline build, a page per keyword and the index, a charset on every page, no local address in dist/.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { astro, buildPackage, REPO, withBuildLock, type RunResult } from '../loader/astro-site.js';

const run = promisify(execFile);
let dir: string;
let build: RunResult;
let files: string[];

/** The Quick start's file blocks: each starts with a comment naming its file (`// src/x.ts`, `# articles.yaml`, or inside `---` for .astro). */
function quickStartFiles(readme: string): Map<string, string> {
  const section = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5));
  const found = new Map<string, string>();
  for (const [, language, body] of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (language === 'sh') continue;
    const head = body!.split('\n').slice(0, 2).join('\n');
    const name = /^(?:---\n)?(?:\/\/|#)\s*([\w./[\]-]+\.\w+)/.exec(head)?.[1];
    if (name === undefined) throw new Error(`a Quick start block does not start with its file name:\n${head}`);
    found.set(name, body!);
  }
  return found;
}

async function allFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  return (await Promise.all(entries.map((entry) => (entry.isDirectory() ? allFiles(join(root, entry.name)) : [join(root, entry.name)])))).flat();
}

beforeAll(async () => {
  await buildPackage();
  dir = await mkdtemp(join(tmpdir(), 'aal-quickstart-'));
  const tarball = await withBuildLock(async () => {
    const { stdout } = await run('npm', ['pack', '--pack-destination', dir, '--ignore-scripts', '--json'], { cwd: REPO });
    return join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  });
  const site = join(dir, 'site');
  const blocks = quickStartFiles(await readFile(join(REPO, 'README.md'), 'utf8'));
  for (const [name, body] of blocks) {
    await mkdir(dirname(join(site, name)), { recursive: true });
    await writeFile(join(site, name), body);
  }
  await writeFile(join(site, 'package.json'), JSON.stringify({ name: 'quick-start', private: true, type: 'module' }));
  const astroVersion = (JSON.parse(await readFile(join(REPO, 'node_modules/astro/package.json'), 'utf8')) as { version: string }).version;
  // --prefer-offline: packages the npm cache already holds are not asked of the registry again (seconds per run).
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', `astro@${astroVersion}`, tarball], { cwd: site, maxBuffer: 16 * 1024 * 1024 });
  build = await astro(site, ['build']);
  files = build.code === 0 ? await allFiles(join(site, 'dist')) : [];
}, 600_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the README's Quick start, copied literally", () => {
  it('should build offline: a page for each keyword, and the index', () => {
    expect(build.code, build.output).toBe(0);
    const pages = files.filter((file) => file.endsWith('.html')).map((file) => file.slice(file.indexOf('/dist/') + 5));
    expect(pages.sort()).toEqual(['/articles/best-coffee-grinders/index.html', '/articles/how-to-brew-pour-over-coffee/index.html', '/index.html']);
  });

  it('should declare the charset on every page', async () => {
    for (const file of files.filter((name) => name.endsWith('.html'))) expect(await readFile(file, 'utf8'), file).toMatch(/<meta charset="utf-8"/i);
  });

  it('should build again from the committed lock file and cache without starting the emulator', async () => {
    const site = join(dir, 'site');
    const lock = await readFile(join(site, 'articles.lock.json'), 'utf8');
    expect(build.output).toContain('offline mode: neither an API key nor a service address is set');
    const again = await astro(site, ['build']);
    expect(again.code, again.output).toBe(0);
    expect(again.output).not.toContain('offline mode: neither an API key nor a service address is set');
    expect(await readFile(join(site, 'articles.lock.json'), 'utf8')).toBe(lock);
  }, 300_000);

  it('should never refer to 127.0.0.1 or localhost in dist/', async () => {
    for (const file of files.filter((name) => /\.(html|css|js|json|xml|txt)$/.test(name))) {
      expect(await readFile(file, 'utf8'), file).not.toMatch(/127\.0\.0\.1|localhost/);
    }
  });
});
