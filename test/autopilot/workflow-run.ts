// Test harness: runs the steps of the articles workflow `init github` wrote, in order, as a GitHub runner would, against a local bare repository and the emulator in a child process.
//
// What stands in for what (each documented here, and nothing else is emulated):
// - `actions/checkout` with `fetch-depth: 0`: a full `git clone` of the bare repository into a fresh folder (a fresh runner
//   per run, with no git identity configured); any other depth is a shallow clone, as checkout would make.
// - `actions/setup-node`: skipped; the steps run on this process's Node 22 (first on PATH under the test runner).
// - `npm ci`: the site's node_modules is linked to this package's dist/ and its dependencies, as the fixture sites are
//   (test/loader/astro-site.ts, installModules), with the bin npm would link in node_modules/.bin.
// - `run:` steps: bash, as GitHub's default shell on Linux (`bash --noprofile --norc -eo pipefail`), with the job's and the
//   step's `env:`; every `${{ … }}` in those values is replaced by the test's value for it (EXPRESSIONS); one the test has
//   no value for fails the run. RUNNER_TEMP, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY are files of the run's own temp folder;
//   CI and GITHUB_ACTIONS are set, as on a runner.
// - the pull-request step (the one that runs `gh pr`): its `if:` must be the condition this harness evaluates; its script
//   runs as written, with a stand-in `gh` first on PATH that answers `gh pr list` with the open pull request's number (when
//   the test says one is open) and records what `gh pr create` or `gh pr edit` was given: the head and the body file. The
//   branch was pushed by autopilot itself; the harness checks it is on the remote.
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { ChildOutput } from '../child-output.js';
import { installModules } from '../loader/astro-site.js';
import type { GitSandbox } from './git-sandbox.js';

export interface WorkflowStep {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string | number | boolean>;
  with?: Record<string, unknown>;
}

export interface ArticlesJob {
  env: Record<string, string>;
  steps: WorkflowStep[];
  workingDirectory: string | undefined;
}

/** The condition the pull-request step must carry for this harness's reading of it to be the runner's. */
export const PULL_REQUEST_CONDITION = "(steps.autopilot.outputs.exit-code == '6' || steps.autopilot.outputs.exit-code == '8') && inputs.dry-run != true";

/** The articles job of the workflow text: its env, its steps, its working directory. */
export function articlesJob(workflow: string): ArticlesJob {
  const job = parse(workflow).jobs.articles;
  return { env: job.env ?? {}, steps: job.steps, workingDirectory: job.defaults?.run?.['working-directory'] };
}

/** A workflow_dispatch run's inputs; a scheduled run has none (GitHub then gives '' for each). */
export interface RunInputs {
  'dry-run'?: boolean;
  budget?: string;
}

/** The value each expression of the workflow stands for in the test, by its text. */
function expressionValues(key: string, inputs: RunInputs): Record<string, string> {
  return {
    'secrets.ARTICLES_API_KEY': key,
    'inputs.dry-run': inputs['dry-run'] === undefined ? '' : String(inputs['dry-run']),
    'inputs.budget': inputs.budget ?? '',
    // The pull-request step's, read by no stand-in but the base: a run started on main of the repository owner/site.
    'github.token': 'test-token-unused',
    'github.repository': 'owner/site',
    'github.ref_name': 'main',
    'github.server_url': 'https://github.com',
    'github.run_id': '1',
  };
}

/** `text` with each `${{ expression }}` replaced by the test's value; an expression without one throws. */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    if (!Object.hasOwn(values, expression)) throw new Error(`the workflow uses \${{ ${expression} }}, which this harness has no value for`);
    return values[expression]!;
  });
}

export interface JobOptions {
  box: GitSandbox;
  workflow: string;
  /** The service's key: the secret ARTICLES_API_KEY. */
  key: string;
  /** The fixed clock (ARTICLE_LOADER_NOW). */
  now: string;
  inputs?: RunInputs;
  /** SIGKILL the job (autopilot and its shell) once autopilot prints the `occurrence`-th whole line matching `line` (1-based). */
  killAt?: { line: RegExp; occurrence: number };
  /** A pull request from the branch is open (what the stand-in `gh pr list` answers); none by default. */
  openPullRequest?: boolean;
}

export interface JobResult {
  /** Autopilot's exit code as the step wrote it to $GITHUB_OUTPUT, or undefined when the job was killed. */
  exitCode: number | undefined;
  /** The step's own exit status: 0 when the workflow counts the code as no failure. */
  stepStatus: number | null;
  killed: boolean;
  /** What autopilot printed (stdout and stderr). */
  output: string;
  /** What the pull-request step did through `gh`: created or edited the pull request (its head and body); undefined: neither. */
  pullRequest: { action: 'create' | 'edit'; head: string; body: string } | undefined;
  /** The job's clone. */
  clone: string;
}

/** Runs the articles job once on a fresh runner: its steps in order, until one fails or the job is killed. */
export async function runArticlesJob(options: JobOptions): Promise<JobResult> {
  const job = articlesJob(options.workflow);
  const runner = await mkdtemp(path.join(options.box.dir, 'runner-'));
  const clone = path.join(runner, 'work');
  const temp = path.join(runner, 'temp');
  await mkdir(temp);
  const files = { GITHUB_OUTPUT: path.join(temp, 'output'), GITHUB_STEP_SUMMARY: path.join(temp, 'summary.md') };
  await Promise.all(Object.values(files).map((file) => writeFile(file, '')));
  const values = expressionValues(options.key, options.inputs ?? {});
  const result: JobResult = { exitCode: undefined, stepStatus: null, killed: false, output: '', pullRequest: undefined, clone };
  const site = () => (job.workingDirectory === undefined ? clone : path.join(clone, job.workingDirectory));
  for (const step of job.steps) {
    // The autopilot step's outputs, as `steps.autopilot.outputs.<name>` in the later steps' expressions.
    const outputs = Object.entries(await readOutputs(files.GITHUB_OUTPUT)).map(([name, value]) => [`steps.autopilot.outputs.${name}`, value]);
    const stepValues = { ...values, ...Object.fromEntries(outputs) };
    const env = { ...options.box.env, CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: temp, ...files, ARTICLE_LOADER_NOW: options.now, ...envOf(job.env, stepValues), ...envOf(step.env ?? {}, stepValues) };
    if (step.uses?.startsWith('actions/checkout@')) await checkout(options.box, step, clone);
    else if (step.uses?.startsWith('actions/setup-node@')) continue;
    else if (step.run === 'npm ci') await npmCi(site());
    else if (step.run?.includes('gh pr ')) {
      if (step.if !== PULL_REQUEST_CONDITION) throw new Error(`the pull-request step's condition changed: ${step.if}`);
      const code = stepValues['steps.autopilot.outputs.exit-code'];
      if ((code === '6' || code === '8') && values['inputs.dry-run'] !== 'true') result.pullRequest = await pullRequestStep(step.run!, site(), env, options);
    } else if (step.id === 'autopilot') {
      const ran = await runStep(step.run!, site(), env, options.killAt);
      Object.assign(result, { stepStatus: ran.status, killed: ran.killed, output: ran.output });
      const code = (await readOutputs(files.GITHUB_OUTPUT))['exit-code'];
      result.exitCode = code === undefined ? undefined : Number(code);
      if (ran.killed || ran.status !== 0) return result;
    } else throw new Error(`a step this harness does not know: ${JSON.stringify(step)}`);
  }
  return result;
}

function envOf(given: Record<string, string | number | boolean>, values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(given).map(([name, value]) => [name, substitute(String(value), values)]));
}

/** actions/checkout: the whole history with fetch-depth 0, else a shallow clone of that depth (1 by default). */
async function checkout(box: GitSandbox, step: WorkflowStep, clone: string): Promise<void> {
  const depth = Number(step.with?.['fetch-depth'] ?? 1);
  await box.git(box.dir, ['clone', '--quiet', ...(depth === 0 ? [box.remote] : ['--depth', String(depth), `file://${box.remote}`]), clone]);
}

/** npm ci: the site's node_modules as the fixture sites have it, and the bin npm links (executable, as npm makes it). */
async function npmCi(site: string): Promise<void> {
  await installModules(site);
  const bin = path.join(site, 'node_modules', 'astro-article-loader', 'dist', 'cli', 'index.js');
  await chmod(bin, 0o755);
  await mkdir(path.join(site, 'node_modules', '.bin'), { recursive: true });
  await symlink(bin, path.join(site, 'node_modules', '.bin', 'astro-article-loader'));
}

async function readOutputs(file: string): Promise<Record<string, string>> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line.includes('='));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
}

/** A `run:` step in bash, in its own process group so a kill takes the shell, npx and autopilot together. */
async function runStep(script: string, cwd: string, env: NodeJS.ProcessEnv, killAt: JobOptions['killAt']): Promise<{ status: number | null; killed: boolean; output: string }> {
  const file = path.join(env.RUNNER_TEMP!, `step-${Date.now()}.sh`);
  await writeFile(file, script);
  const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const output = ChildOutput.of(child, 'the autopilot step');
  const closed = new Promise<number | null>((resolvePromise) => child.once('close', (code) => resolvePromise(code)));
  let killed = false;
  if (killAt !== undefined) killed = await killOn(output, killAt, child.pid!);
  const status = await closed;
  return { status: killed ? null : status, killed, output: output.text };
}

/** Waits for the `occurrence`-th line matching, then kills the step's process group; false when the step ended first. */
async function killOn(output: ChildOutput, killAt: NonNullable<JobOptions['killAt']>, pid: number): Promise<boolean> {
  let from = 0;
  try {
    for (let seen = 0; seen < killAt.occurrence; seen += 1) {
      const line = await output.waitForLine(killAt.line, { from });
      from = output.complete.indexOf(line, from) + line.length;
    }
  } catch {
    return false;
  }
  process.kill(-pid, 'SIGKILL');
  return true;
}

/** The stand-in `gh`: `pr list` prints $GH_OPEN_NUMBER; `pr create` and `pr edit` write their action, head and body to $GH_CALLS. */
const GH_STAND_IN = `#!/bin/bash
set -eu
case "$1 $2" in
  "pr list") printf '%s\\n' "$GH_OPEN_NUMBER" ;;
  "pr create"|"pr edit")
    args=("$@"); head=""; body=""
    for ((i = 0; i < \${#args[@]}; i++)); do
      case "\${args[i]}" in --head) head="\${args[i+1]}" ;; --body-file) body="\${args[i+1]}" ;; esac
    done
    { printf '%s\\t%s\\n' "$2" "$head"; cat "$body"; } > "$GH_CALLS" ;;
  *) echo "gh stand-in: $*" >&2; exit 1 ;;
esac
`;

/** Runs the pull-request step's script as written, `gh` being the stand-in; what it created or edited, if anything. */
async function pullRequestStep(script: string, cwd: string, env: NodeJS.ProcessEnv, options: JobOptions): Promise<JobResult['pullRequest']> {
  if (env.BASE !== 'main') throw new Error(`the pull request's base is ${env.BASE}, not the branch the run started on`);
  const bin = path.join(env.RUNNER_TEMP!, 'gh-bin');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'gh'), GH_STAND_IN, { mode: 0o755 });
  const calls = path.join(env.RUNNER_TEMP!, 'gh-calls');
  const ghEnv = { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ''}`, GH_CALLS: calls, GH_OPEN_NUMBER: options.openPullRequest === true ? '7' : '' };
  const ran = await runStep(script, cwd, ghEnv, undefined);
  if (ran.status !== 0) throw new Error(`the pull-request step failed (${ran.status}):\n${ran.output}`);
  const text = await readFile(calls, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const [first, ...body] = text.split('\n');
  const [action, head] = first!.split('\t') as ['create' | 'edit', string];
  if (action === 'create') await options.box.git(options.box.remote, ['rev-parse', '--verify', `refs/heads/${head}`]);
  return { action, head: action === 'create' ? head : env.ARTICLES_BRANCH!, body: body.join('\n') };
}
