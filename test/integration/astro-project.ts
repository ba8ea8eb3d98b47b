// Test harness: the toolbar fixture site copied into a temp dir, the package built once, Astro run in child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';

import { ChildOutput } from '../child-output.js';
import { buildPackage, childEnv, createSite as createFixtureSite, REPO, type Site } from '../loader/astro-site.js';

export { buildPackage, ChildOutput, childEnv, REPO, type Site };
export const ARTIFACTS = join(REPO, 'test-artifacts');
const ASTRO_BIN = join(REPO, 'node_modules/astro/bin/astro.mjs');

/** The toolbar fixture (the package installed as published, as createSite does). */
export function createSite(name = 'toolbar'): Promise<Site> {
  return createFixtureSite(name);
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
    // Decoded across chunks: a chunk may end inside a character (✓, ≈).
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
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
  output.follow(child);
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
  const local = /Local\s+(http:\/\/[^\s/]+)\//.exec(output.complete);
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
