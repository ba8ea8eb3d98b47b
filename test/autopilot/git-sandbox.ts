// Test harness: real git repositories in a temp folder, a local bare repository standing in for the remote, and git with no identity of its own (as on a CI runner).
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The owner who commits to the base branch in these tests. */
export const OWNER = ['-c', 'user.name=Site Owner', '-c', 'user.email=owner@example.com'];

export interface GitSandbox {
  dir: string;
  /** The bare repository the clones push to (`origin`). */
  remote: string;
  /** git with no user or system configuration: no identity, as a fresh CI runner. */
  env: NodeJS.ProcessEnv;
  git(cwd: string, args: readonly string[]): Promise<string>;
  /** A full clone of the remote in a new folder. */
  clone(name: string, extra?: readonly string[]): Promise<string>;
  /** Writes files (relative path → text) under `cwd`. */
  write(cwd: string, files: Record<string, string>): Promise<void>;
  /** Commits everything in `cwd` as the owner and pushes the checked-out branch. */
  ownerCommit(cwd: string, message: string): Promise<void>;
  cleanup(): Promise<void>;
}

export async function createGitSandbox(): Promise<GitSandbox> {
  const dir = await mkdtemp(path.join(tmpdir(), 'aal-git-'));
  const home = path.join(dir, 'home');
  await mkdir(home);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
  const git = (cwd: string, args: readonly string[]): Promise<string> =>
    new Promise((resolvePromise, reject) => {
      execFile('git', args, { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) =>
        error === null ? resolvePromise(stdout.trim()) : reject(new Error(`git ${args.join(' ')}: ${stderr}`)),
      );
    });
  const remote = path.join(dir, 'remote.git');
  await git(dir, ['init', '--quiet', '--bare', '-b', 'main', remote]);
  const write = async (cwd: string, files: Record<string, string>): Promise<void> => {
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(cwd, name)), { recursive: true });
      await writeFile(path.join(cwd, name), text);
    }
  };
  return {
    dir,
    remote,
    env,
    git,
    write,
    clone: async (name, extra = []) => {
      const target = path.join(dir, name);
      await git(dir, ['clone', '--quiet', ...extra, extra.some((arg) => arg.startsWith('--depth')) ? `file://${remote}` : remote, target]);
      return target;
    },
    ownerCommit: async (cwd, message) => {
      await git(cwd, ['add', '--all']);
      await git(cwd, [...OWNER, 'commit', '--quiet', '-m', message]);
      await git(cwd, ['push', '--quiet', 'origin', 'HEAD']);
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A site's repository on the remote's main: a manifest and a lock file, committed by the owner. */
export async function seedSite(sandbox: GitSandbox, files: Record<string, string> = {}): Promise<void> {
  const seed = path.join(sandbox.dir, 'seed');
  await sandbox.git(sandbox.dir, ['init', '--quiet', '-b', 'main', seed]);
  await sandbox.git(seed, ['remote', 'add', 'origin', sandbox.remote]);
  await sandbox.write(seed, {
    'articles.yaml': 'articles:\n  - how to brew pour over coffee\n',
    'articles.lock.json': '{\n  "version": 1,\n  "articles": {}\n}\n',
    'README.md': 'A site.\n',
    ...files,
  });
  await sandbox.ownerCommit(seed, 'The site');
}
