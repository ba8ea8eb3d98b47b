// Test harness: the toolbar fixture site copied into a temp dir, the package built once, Astro run in child processes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import lockfile from 'proper-lockfile';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = join(REPO, 'test-artifacts');
const ASTRO_BIN = join(REPO, 'node_modules/astro/bin/astro.mjs');
const TSC_BIN = join(REPO, 'node_modules/typescript/bin/tsc');

const BUILD_LOCK = join(tmpdir(), 'astro-article-loader-dist-build');

/** Runs `task` while holding the lock test/loader's harness takes around its builds of dist/. */
async function withBuildLock<T>(task: () => Promise<T>): Promise<T> {
  await mkdir(BUILD_LOCK, { recursive: true });
  const release = await lockfile.lock(BUILD_LOCK, { retries: { retries: 600, minTimeout: 200, maxTimeout: 500 }, stale: 120_000 });
  try {
    return await task();
  } finally {
    await release();
  }
}

/** Builds dist/. Other test files build it too, in parallel processes: the shared lock serializes every build. */
export async function buildPackage(): Promise<void> {
  await withBuildLock(async () => {
    const result = spawnSync(process.execPath, [TSC_BIN, '-p', 'tsconfig.build.json'], { cwd: REPO, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
  });
}

export interface Site {
  root: string;
  cleanup(): Promise<void>;
}

/**
 * Copies `fixtures/sites/<name>` into a temp dir with a node_modules of its own: links to the
 * repository's dependencies, and `astro-article-loader` installed as the published package is
 * (package.json and dist/, copied). A copy rather than test/loader's link to the repository: the
 * toolbar app must resolve from an installed package, and Vite watches a linked package, so every
 * rebuild of dist/ by a parallel test would reload this site's pages and modules.
 */
export async function createSite(name = 'toolbar'): Promise<Site> {
  const root = await mkdtemp(join(tmpdir(), `aal-site-${name}-`));
  await cp(join(REPO, 'fixtures/sites', name), root, { recursive: true });
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
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** The environment of a child Astro: no CI, no vitest markers, no service settings unless given, no colours, no telemetry. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ASTRO_TELEMETRY_DISABLED: '1' };
  for (const key of ['CI', 'ARTICLES_API_KEY', 'ARTICLES_API_URL', 'FORCE_COLOR', 'NODE_ENV', 'TEST', 'TINYPOOL_WORKER_ID']) delete env[key];
  // Vitest marks its own process; a child Astro would take the markers as its own.
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
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

/** `astro <args>` in the site to its end, on this Node (22 under vitest), stdout and stderr together. */
export function astro(root: string, args: string[], env: Record<string, string | undefined> = {}): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [ASTRO_BIN, ...args, '--root', root], { cwd: root, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, output }));
  });
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

/** Whether something accepts TCP connections at `url`'s host and port right now. */
export function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolvePromise(true);
    });
    socket.once('error', () => resolvePromise(false));
  });
}

/** Output of a child that tests can wait on. */
export class ChildOutput {
  #text = '';
  readonly #waiters = new Set<() => void>();

  append(chunk: string): void {
    this.#text += chunk;
    for (const wake of [...this.#waiters]) wake();
  }

  get text(): string {
    return this.#text;
  }

  /** Resolves with the first match of `pattern` in the output from `from` on; rejects when `failed()` says the child is gone. */
  waitFor(pattern: RegExp, options: { from?: number; failed?: () => string | undefined } = {}): Promise<RegExpExecArray> {
    return new Promise((resolvePromise, reject) => {
      const check = (): void => {
        const match = pattern.exec(this.#text.slice(options.from ?? 0));
        if (match !== null) {
          this.#waiters.delete(check);
          resolvePromise(match);
          return;
        }
        const failure = options.failed?.();
        if (failure !== undefined) {
          this.#waiters.delete(check);
          reject(new Error(`${failure} before ${pattern} appeared:\n${this.#text}`));
        }
      };
      this.#waiters.add(check);
      check();
    });
  }
}

export interface DevServer {
  url: string;
  output: ChildOutput;
  /** True once the process has exited. */
  exited(): boolean;
  /** SIGTERM to the process group (Vite closes the server and exits), SIGKILL after 10 s. */
  stop(): Promise<void>;
}

/** `astro dev` in a child process, in its own process group so stop() ends anything it started. */
export async function startDevServer(root: string, env: Record<string, string | undefined> = {}): Promise<DevServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [ASTRO_BIN, 'dev', '--root', root, '--port', String(port), '--host', '127.0.0.1'], {
    cwd: root,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = new ChildOutput();
  child.stdout!.on('data', (chunk: Buffer) => output.append(chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => output.append(chunk.toString('utf8')));
  let exitCode: string | undefined;
  const exited = new Promise<void>((resolvePromise) =>
    child.once('exit', (code, signal) => {
      exitCode = `astro dev exited (${code ?? signal})`;
      output.append('');
      resolvePromise();
    }),
  );
  await output.waitFor(/watching for file changes/, { failed: () => exitCode });
  // Astro moves to another port when the one asked for was taken meanwhile: read the one it printed.
  const local = /Local\s+(http:\/\/[^\s/]+)\//.exec(output.text);
  return {
    url: local?.[1] ?? `http://127.0.0.1:${port}`,
    output,
    exited: () => exitCode !== undefined,
    stop: async () => {
      if (exitCode !== undefined || child.pid === undefined) return;
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => exitCode === undefined && process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
