// The unattended run's branch against real git: a bare repository as the remote, full and shallow clones, rejected pushes and conflicts.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/error-report.js';
import { RunBranchError } from '../../src/autopilot/git-command.js';
import { inPlaceRunBranch, openRunBranch, type RunBranchOptions } from '../../src/autopilot/run-branch.js';
import { createGitSandbox, OWNER, seedSite, type GitSandbox } from './git-sandbox.js';

const RUN_PATHS = ['articles.yaml', 'articles.lock.json', 'articles.cache', 'articles.edits', 'public/_articles'];
const BRANCH = 'articles/autopilot';

let box: GitSandbox;

beforeEach(async () => {
  box = await createGitSandbox();
  await seedSite(box);
});

afterEach(async () => {
  await box.cleanup();
});

function options(cwd: string, extra: Partial<RunBranchOptions> = {}): RunBranchOptions {
  return { cwd, remote: 'origin', branch: BRANCH, base: undefined, paths: RUN_PATHS, env: box.env, ...extra };
}

const remoteLog = (ref: string, format = '%s'): Promise<string> => box.git(box.remote, ['log', `--format=${format}`, ref]);
const remoteFiles = (ref: string, commit = ref): Promise<string> => box.git(box.remote, ['show', '--name-only', '--format=', commit]);
const lockWith = (ids: string[]): string => `${JSON.stringify({ version: 1, articles: Object.fromEntries(ids.map((id) => [id, { articleId: id }])) }, null, 2)}\n`;

async function refusal(run: Promise<unknown>): Promise<RunBranchError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RunBranchError);
  return error as RunBranchError;
}

describe('openRunBranch', () => {
  it('should create the branch from the base when the remote has none, and push only the run\'s paths as astro-article-loader', async () => {
    const job = await box.clone('job');
    const branch = await openRunBranch(options(job));
    expect(branch.startedFrom).toBe('base');
    expect(branch.changedInRun()).toBe(false);
    expect(await box.git(job, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe(BRANCH);
    await box.write(job, { 'articles.lock.json': lockWith(['a1']), 'articles.cache/a1.json': '{}', 'notes.txt': 'not the run\'s' });
    expect(await branch.checkpoint('Articles: record the create of a1')).toBe(true);
    expect(branch.changedInRun()).toBe(true);
    expect(await remoteLog(BRANCH)).toBe('Articles: record the create of a1\nThe site');
    expect(await remoteLog(BRANCH, '%an <%ae>|%cn <%ce>')).toMatch(/^astro-article-loader <autopilot@users\.noreply\.github\.com>\|astro-article-loader <autopilot@users\.noreply\.github\.com>\n/);
    expect((await remoteFiles(BRANCH)).split('\n').sort()).toEqual(['articles.cache/a1.json', 'articles.lock.json']);
    expect(await box.git(job, ['status', '--porcelain'])).toBe('?? notes.txt');
    expect(await remoteLog('main')).toBe('The site');
  });

  it('should make no commit and push nothing when the run\'s paths did not change', async () => {
    const job = await box.clone('job');
    const branch = await openRunBranch(options(job));
    await box.write(job, { 'notes.txt': 'unrelated' });
    expect(await branch.checkpoint('Articles: nothing')).toBe(false);
    expect(branch.changedInRun()).toBe(false);
    await expect(box.git(box.remote, ['rev-parse', '--verify', `refs/heads/${BRANCH}`])).rejects.toThrow();
  });

  it('should commit a deleted cache file and keep the author git is configured with', async () => {
    const job = await box.clone('job');
    await box.git(job, ['config', 'user.name', 'Build Bot']);
    await box.git(job, ['config', 'user.email', 'bot@example.com']);
    const branch = await openRunBranch(options(job));
    await box.write(job, { 'articles.cache/old.json': '{}' });
    expect(await branch.checkpoint('one')).toBe(true);
    await import('node:fs/promises').then(({ rm }) => rm(path.join(job, 'articles.cache'), { recursive: true }));
    expect(await branch.checkpoint('two')).toBe(true);
    expect(await remoteLog(BRANCH, '%an <%ae>')).toMatch(/^Build Bot <bot@example\.com>\nBuild Bot <bot@example\.com>\n/);
    expect(await box.git(box.remote, ['ls-tree', '-r', '--name-only', BRANCH])).not.toContain('articles.cache');
  });

  it('should continue the remote\'s branch with the base merged in, so the run reads both', async () => {
    const first = await box.clone('first');
    const run = await openRunBranch(options(first));
    await box.write(first, { 'articles.lock.json': lockWith(['paid-1']) });
    await run.checkpoint('Articles: paid-1');
    const seed = path.join(box.dir, 'seed');
    await box.write(seed, { 'articles.yaml': 'articles:\n  - how to brew pour over coffee\n  - best coffee grinders\n' });
    await box.ownerCommit(seed, 'A new keyword');

    const job = await box.clone('job');
    const branch = await openRunBranch(options(job));
    expect(branch.startedFrom).toBe('branch');
    expect(await readFile(path.join(job, 'articles.lock.json'), 'utf8')).toContain('paid-1');
    expect(await readFile(path.join(job, 'articles.yaml'), 'utf8')).toContain('best coffee grinders');
    expect(branch.changedInRun()).toBe(false);
    await box.write(job, { 'articles.lock.json': lockWith(['paid-1', 'paid-2']) });
    expect(await branch.checkpoint('Articles: paid-2')).toBe(true);
    const log = await remoteLog(BRANCH);
    expect(log.split('\n').slice(0, 2)).toEqual(['Articles: paid-2', 'Merge main into articles/autopilot']);
    expect(log.split('\n').slice(2).sort()).toEqual(['A new keyword', 'Articles: paid-1', 'The site']);
  });

  it('should tell an earlier run\'s unmerged work on the branch, with the base\'s lock file, until the base has it', async () => {
    const lockFile = (dir: string): string => path.join(dir, 'articles.lock.json');
    const first = await box.clone('first');
    const run = await openRunBranch(options(first));
    expect(await run.unmerged(lockFile(first))).toBeUndefined();
    await box.write(first, { 'articles.lock.json': lockWith(['paid-1']) });
    await run.checkpoint('Articles: paid-1');
    expect(await run.unmerged(lockFile(first))).toEqual({ baseLockText: '{\n  "version": 1,\n  "articles": {}\n}\n' });

    // A later run that changes nothing still sees the branch ahead of its base.
    const later = await box.clone('later');
    const again = await openRunBranch(options(later));
    expect(again.changedInRun()).toBe(false);
    expect(await again.unmerged(lockFile(later))).toEqual({ baseLockText: '{\n  "version": 1,\n  "articles": {}\n}\n' });

    // Merged into the base: nothing is unmerged any more.
    const seed = path.join(box.dir, 'seed');
    await box.git(seed, ['fetch', '--quiet', 'origin']);
    await box.git(seed, [...OWNER, 'merge', '--quiet', '--no-edit', `origin/${BRANCH}`]);
    await box.git(seed, ['push', '--quiet', 'origin', 'main']);
    const merged = await box.clone('merged');
    expect(await (await openRunBranch(options(merged))).unmerged(lockFile(merged))).toBeUndefined();
    expect(await inPlaceRunBranch().unmerged(lockFile(merged))).toBeUndefined();
  });

  it('should abort a conflicting merge of the base, say what to do, and push nothing', async () => {
    const first = await box.clone('first');
    const run = await openRunBranch(options(first));
    await box.write(first, { 'articles.lock.json': lockWith(['paid-1']) });
    await run.checkpoint('Articles: paid-1');
    const seed = path.join(box.dir, 'seed');
    await box.write(seed, { 'articles.lock.json': lockWith(['approved-on-main']) });
    await box.ownerCommit(seed, 'Edited the lock on main');
    const before = await box.git(box.remote, ['rev-parse', BRANCH]);

    const job = await box.clone('job');
    const error = await refusal(openRunBranch(options(job)));
    expect(error.code).toBe('branch_conflict');
    expect(exitCodeFor(error)).toBe(1);
    expect(error.message).toContain('articles.lock.json');
    expect(error.message).toContain('git merge main');
    expect(error.message).toContain('Do not delete the branch');
    expect(existsSync(path.join(job, '.git', 'MERGE_HEAD'))).toBe(false);
    expect(await box.git(job, ['status', '--porcelain'])).toBe('');
    expect(await box.git(box.remote, ['rev-parse', BRANCH])).toBe(before);
  });

  it('should fetch and merge once when the push is rejected, never forcing, so both runs\' commits stay', async () => {
    const a = await box.clone('a');
    const b = await box.clone('b');
    const runA = await openRunBranch(options(a));
    const runB = await openRunBranch(options(b));
    await box.write(a, { 'articles.cache/from-a.json': '{"a":1}' });
    await box.write(b, { 'articles.cache/from-b.json': '{"b":1}' });
    expect(await runA.checkpoint('from a')).toBe(true);
    expect(await runB.checkpoint('from b')).toBe(true);
    const tree = await box.git(box.remote, ['ls-tree', '-r', '--name-only', BRANCH]);
    expect(tree).toContain('articles.cache/from-a.json');
    expect(tree).toContain('articles.cache/from-b.json');
    const aCommit = await box.git(a, ['rev-parse', 'HEAD']);
    await expect(box.git(box.remote, ['merge-base', '--is-ancestor', aCommit, BRANCH])).resolves.toBe('');
  });

  it('should refuse to push over a rejected push whose merge conflicts, keeping the remote as it was', async () => {
    const a = await box.clone('a');
    const b = await box.clone('b');
    const runA = await openRunBranch(options(a));
    const runB = await openRunBranch(options(b));
    await box.write(a, { 'articles.lock.json': lockWith(['from-a']) });
    await box.write(b, { 'articles.lock.json': lockWith(['from-b']) });
    await runA.checkpoint('from a');
    const pushed = await box.git(box.remote, ['rev-parse', BRANCH]);
    const error = await refusal(runB.checkpoint('from b'));
    expect(error.code).toBe('branch_conflict');
    expect(await box.git(box.remote, ['rev-parse', BRANCH])).toBe(pushed);
  });

  it('should serialize checkpoints asked for at once: one running, the next joined by every later call', async () => {
    const job = await box.clone('job');
    const branch = await openRunBranch(options(job));
    await box.write(job, { 'articles.cache/one.json': '1' });
    const first = branch.checkpoint('first');
    const second = branch.checkpoint('second');
    const third = branch.checkpoint('third');
    expect(third).toBe(second);
    expect(await Promise.all([first, second, third])).toEqual([true, false, false]);
    expect(await remoteLog(BRANCH)).toBe('first\nThe site');
    await box.write(job, { 'articles.cache/two.json': '2' });
    expect(await branch.checkpoint('fourth')).toBe(true);
    expect(await remoteLog(BRANCH)).toBe('fourth\nfirst\nThe site');
  });

  it('should refuse a shallow clone with advice to fetch the whole history, exit 2, changing nothing', async () => {
    const job = await box.clone('job', ['--depth', '1']);
    const error = await refusal(openRunBranch(options(job)));
    expect(error.code).toBe('shallow_clone');
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toContain('fetch-depth: 0');
    expect(await box.git(job, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
    await expect(box.git(box.remote, ['rev-parse', '--verify', `refs/heads/${BRANCH}`])).rejects.toThrow();
  });

  it('should refuse a folder outside git, exit 2, with --no-git as the way to try it in place', async () => {
    const error = await refusal(openRunBranch(options(box.dir)));
    expect(error.code).toBe('not_a_git_repository');
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toContain('--no-git');
  });

  it('should refuse uncommitted changes in the run\'s paths, which its first commit would carry', async () => {
    const job = await box.clone('job');
    await box.write(job, { 'articles.yaml': 'articles:\n  - changed by hand\n' });
    const error = await refusal(openRunBranch(options(job)));
    expect(error.code).toBe('run_paths_uncommitted');
    expect(exitCodeFor(error)).toBe(2);
    expect(error.message).toContain('articles.yaml');
    expect(await box.git(job, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
  });

  it('should never reset a local branch of the run\'s name that holds commits the remote lacks', async () => {
    const job = await box.clone('job');
    await box.git(job, ['checkout', '--quiet', '-b', BRANCH]);
    await box.write(job, { 'articles.lock.json': lockWith(['unpushed']) });
    await box.git(job, ['add', '--all']);
    await box.git(job, [...OWNER, 'commit', '--quiet', '-m', 'unpushed ids']);
    await box.git(job, ['checkout', '--quiet', 'main']);
    const error = await refusal(openRunBranch(options(job)));
    expect(error.code).toBe('branch_diverged');
    expect(error.message).toContain(`git push origin ${BRANCH}`);
    expect(await box.git(job, ['log', '--format=%s', '-1', BRANCH])).toBe('unpushed ids');
  });

  it('should name no credential of the remote\'s address when it cannot be reached', async () => {
    const job = await box.clone('job');
    await box.git(job, ['remote', 'set-url', 'origin', 'https://x-access-token:ghs_SECRETTOKEN123@127.0.0.1:9/site.git']);
    const error = await refusal(openRunBranch(options(job)));
    expect(error.code).toBe('git_failed');
    expect(error.message).not.toContain('ghs_SECRETTOKEN123');
  });
});

describe('inPlaceRunBranch', () => {
  it('should commit nothing and say it ran in place', async () => {
    const branch = inPlaceRunBranch();
    expect(branch.startedFrom).toBe('in-place');
    expect(await branch.checkpoint('anything')).toBe(false);
    expect(branch.changedInRun()).toBe(false);
  });
});
