// Test harness: a fixture site copied into a temp dir, the package built once, and Astro run in child processes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';
import { ChildOutput } from '../child-output.js';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ASTRO_BIN = join(REPO, 'node_modules/astro/bin/astro.mjs');
const TSC_BIN = join(REPO, 'node_modules/typescript/bin/tsc');

/** One lock per checkout: it guards this checkout's dist/, and another clone's builds need not wait for it. */
const BUILD_LOCK = join(tmpdir(), `astro-article-loader-dist-build-${createHash('sha256').update(REPO).digest('hex').slice(0, 12)}`);

/** Runs `task` holding the lock every harness takes around builds and copies of dist/, so no one reads a half-written dist. */
export async function withBuildLock<T>(task: () => Promise<T>): Promise<T> {
  await mkdir(BUILD_LOCK, { recursive: true });
  const release = await lockfile.lock(BUILD_LOCK, { retries: { retries: 600, minTimeout: 200, maxTimeout: 500 }, stale: 120_000 });
  try {
    return await task();
  } finally {
    await release();
  }
}

/** The newest modification time of any file under `dir`. */
export async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestMtime(full) : (await stat(full)).mtimeMs);
  }
  return newest;
}

/** When dist/ was last built by a test, from sources no newer than that. */
const DIST_STAMP = join(REPO, 'test-artifacts', 'dist-built');

/** The oldest modification time of any `.js` file under `dir` (0 when there is none). */
async function oldestJsMtime(dir: string): Promise<number> {
  const files = (await readdir(dir, { recursive: true }).catch(() => [] as string[])).filter((name) => name.endsWith('.js'));
  const times = await Promise.all(files.map(async (name) => (await stat(join(dir, name))).mtimeMs));
  return times.length === 0 ? 0 : Math.min(...times);
}

/**
 * Builds dist/ unless it is already built from the current sources: by `npm install` (its
 * `prepare` script; tsc rewrites every file, so all of dist/ is newer than src/) or by an earlier
 * test (the stamp; it also covers a dist/ holding the leftovers of a deleted source). Every harness
 * runs the package from dist/, as a user does: the fixture sites import it by name, the CLI tests
 * run its bin. Test files run in parallel processes, and a linked site reads dist/ while it
 * builds: tsc rewriting every file under it once per test file could show one a file half-written.
 */
export async function buildPackage(): Promise<void> {
  await withBuildLock(async () => {
    const sources = Math.max(await newestMtime(join(REPO, 'src')), ...(await Promise.all(['tsconfig.build.json', 'package.json'].map(async (file) => (await stat(join(REPO, file))).mtimeMs))));
    const stamped = await stat(DIST_STAMP).then(
      (stamp) => stamp.mtimeMs,
      () => 0,
    );
    const hasIndex = (await stat(join(REPO, 'dist/index.js')).catch(() => undefined)) !== undefined;
    if (hasIndex && (stamped > sources || (await oldestJsMtime(join(REPO, 'dist'))) > sources)) return;
    const result = spawnSync(process.execPath, [TSC_BIN, '-p', 'tsconfig.build.json'], { cwd: REPO, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
    await mkdir(dirname(DIST_STAMP), { recursive: true });
    await writeFile(DIST_STAMP, String(Date.now()));
  });
}

/**
 * `root/node_modules`: links to the repository's packages, and `astro-article-loader` installed as the published
 * package is (package.json and dist/ copied in). Not linked to the repository: Vite transforms every module of a
 * linked package as the site's own source (about 0.6 s more per build, measured on 50 cached articles), which no
 * installed site pays, and watches it, so a linked site would also see every rebuild of dist/ by a parallel test.
 */
export async function installModules(root: string): Promise<void> {
  const modules = join(root, 'node_modules');
  await mkdir(modules);
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (entry.startsWith('.')) continue;
    await symlink(join(REPO, 'node_modules', entry), join(modules, entry));
  }
  const installed = join(modules, 'astro-article-loader');
  await mkdir(installed);
  await withBuildLock(async () => {
    await cp(join(REPO, 'package.json'), join(installed, 'package.json'));
    await cp(join(REPO, 'dist'), join(installed, 'dist'), { recursive: true });
  });
}

export interface Site {
  root: string;
  cleanup(): Promise<void>;
}

/** Copies `fixtures/sites/<name>` into a temp dir with a node_modules of its own (see installModules). Astro's cache (node_modules/.astro) and the lock file stay inside the temp dir. */
export async function createSite(name = 'basic'): Promise<Site> {
  const root = await mkdtemp(join(tmpdir(), `aal-site-${name}-`));
  await cp(join(REPO, 'fixtures/sites', name), root, { recursive: true });
  await installModules(root);
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The environment of a child Astro: no CI, no vitest markers, no service settings unless given, no colours, no telemetry. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ASTRO_TELEMETRY_DISABLED: '1' };
  delete env.CI;
  delete env.ARTICLES_API_KEY;
  delete env.ARTICLES_API_URL;
  delete env.FORCE_COLOR;
  // Vitest marks its own process (NODE_ENV=test, VITEST*); a child Astro would take them as its own.
  delete env.NODE_ENV;
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'TINYPOOL_WORKER_ID') delete env[key];
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to its end, stdout and stderr together. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    // Decoded across chunks: a chunk may end inside a character (✓, ≈), which decoding each chunk on its own garbles.
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, output }));
  });
}

/** `astro <args>` in the site, on this Node (22 under vitest). */
export function astro(root: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return run(process.execPath, [ASTRO_BIN, ...args, '--root', root], root, childEnv(env));
}

/** `tsc --noEmit` over the site's tsconfig. */
export function typecheck(root: string): Promise<RunResult> {
  return run(process.execPath, [TSC_BIN, '--noEmit', '-p', join(root, 'tsconfig.json')], root, childEnv());
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePromise(port));
    });
  });
}

export interface DevServer {
  url: string;
  output(): string;
  /** Resolves with the first complete line of the output from `from` on (a character offset of `output()`) that matches. */
  waitForLine(pattern: RegExp, from?: number): Promise<string>;
  stop(): Promise<void>;
}

/** `astro dev` in a child process (its own process group, so stop() ends Vite's children too). */
export async function startDevServer(root: string, env: Record<string, string | undefined> = {}): Promise<DevServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [ASTRO_BIN, 'dev', '--root', root, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: root,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = ChildOutput.of(child, 'astro dev');
  const exited = new Promise<void>((resolvePromise) => child.once('exit', () => resolvePromise()));
  await output.waitFor(/watching for file changes/);
  // Astro moves to another port when the one asked for was taken meanwhile: read the one it printed (the line before).
  const local = /Local\s+(http:\/\/[^\s/]+)\//.exec(output.complete);
  return {
    url: local?.[1] ?? `http://127.0.0.1:${port}`,
    output: () => output.text,
    waitForLine: (pattern, from) => output.waitForLine(pattern, from === undefined ? {} : { from }),
    stop: async () => {
      if (child.exitCode === null && child.pid !== undefined) {
        process.kill(-child.pid, 'SIGTERM');
        const timer = setTimeout(() => child.pid !== undefined && child.exitCode === null && process.kill(-child.pid, 'SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
