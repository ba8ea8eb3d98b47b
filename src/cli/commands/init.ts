// `astro-article-loader init github`: writes the workflow that runs the site by itself (and, with --deploy, the daily deploy), then says the one secret and the one setting to add.
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runGit, RunBranchError } from '../../autopilot/git-command.js';
import { articlesCron } from '../../autopilot/workflow-cron.js';
import {
  ARTICLES_WORKFLOW,
  articlesWorkflow,
  DEPLOY_HOOK_SECRET,
  DEPLOY_WORKFLOW,
  deployWorkflow,
  KEY_SECRET,
  serviceUrlProblems,
  type DeployTarget,
  type WorkflowSettings,
} from '../../autopilot/workflow-files.js';
import { ArticleLoaderError } from '../../errors.js';
import { envValue } from '../../lang/env-value.js';
import { loadManifest } from '../../manifest/index.js';
import type { Schedule } from '../../manifest/schedule.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { locateManifest, shownPath } from '../manifest-location.js';
import { UsageError } from '../usage-error.js';

export const INIT_COMMAND: CommandDefinition = {
  name: 'init',
  summary: 'Write the GitHub workflow that runs the site by itself (init github): articles on a schedule, reviewed in a pull request.',
  flags: { force: { type: 'boolean' }, deploy: { type: 'string' }, 'base-url': { type: 'string' } },
  positionals: { names: ['target'] },
  help: `Usage: astro-article-loader init github [options]

Writes .github/workflows/articles.yml at the top of the git repository: on a schedule (from
the manifest's \`schedule\` when it has one, else daily) and by hand from the Actions tab (with
a dry run and a lower budget), it runs \`astro-article-loader autopilot\`, which creates the
articles the calendar needs next within the manifest's caps on the branch articles/autopilot,
and opens or updates one pull request with the report as its body. Then it prints the one
secret (ARTICLES_API_KEY) and the one repository setting to add.

The service's address is written into the workflow as a plain value (it is not a secret; the
key is, and is never written): --base-url, else ARTICLES_API_URL. With neither, nothing is
written. Nothing is sent to the service.

Options:
${COMMON_FLAG_HELP}
  --base-url <url>       The service's address (default: ARTICLES_API_URL)
  --deploy pages|hook    Also write .github/workflows/deploy.yml: a daily frozen rebuild,
                         so a scheduled article goes live on its date, deployed to GitHub
                         Pages, or through your host's deploy hook (a secret URL)
  --force                Write over workflow files that exist

Examples:
  npx astro-article-loader init github --base-url https://api.example.com
  npx astro-article-loader init github --deploy pages

Refused, with nothing written: outside a git repository or with no manifest (exit 2), with
no service address (exit 2), when a workflow file exists and --force is not given (exit 1).

${EXIT_CODE_HELP}`,
  body: runInit,
};

/** The repository's top, the site's folder under it and the branch checked out; a folder outside git is refused. */
async function repositoryOf(cwd: string, env: NodeJS.ProcessEnv): Promise<{ top: string; siteDir: string; base: string }> {
  const top = await runGit(['rev-parse', '--show-toplevel'], cwd, env);
  if (top.code !== 0) {
    throw new RunBranchError(
      'not_a_git_repository',
      `${cwd} is not in a git repository: the workflow goes in .github/workflows/ of the site's GitHub repository. Run \`git init\` (and push the site to GitHub) first, then init github again. Nothing was written.`,
    );
  }
  const root = realpathSync(top.stdout.trim());
  const siteDir = path.relative(root, realpathSync(cwd)).split(path.sep).join('/');
  const branch = (await runGit(['symbolic-ref', '--quiet', '--short', 'HEAD'], cwd, env)).stdout.trim();
  return { top: root, siteDir, base: branch === '' ? 'main' : branch };
}

/** The service's address: --base-url, else ARTICLES_API_URL; a workflow without one would fail every run, so none writes nothing. */
function serviceUrlOf(given: string | undefined, env: NodeJS.ProcessEnv): string {
  const text = given ?? envValue(env, 'ARTICLES_API_URL');
  if (text === undefined) {
    throw new UsageError(
      'the workflow needs the service\'s address: pass --base-url <url>, or set ARTICLES_API_URL, and run init github again. It is written into the workflow as a plain value (it is not a secret; the key is). Nothing was written.',
      'service_not_configured',
    );
  }
  const problems = serviceUrlProblems(text);
  if (problems.length > 0) throw new UsageError(`the service's address (--base-url, else ARTICLES_API_URL) ${problems.join('; ')}. Nothing was written.`);
  return text;
}

function deployOf(value: string | undefined): DeployTarget | undefined {
  if (value === undefined || value === 'pages' || value === 'hook') return value;
  throw new UsageError(`--deploy takes pages (GitHub Pages) or hook (your host's deploy hook), got "${value}".`);
}

async function runInit({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const [target] = flags.positionals as [string];
  if (target !== 'github') throw new UsageError(`init writes the workflow for one host, GitHub: astro-article-loader init github (got "${target}").`);
  const deploy = deployOf(flags.string('deploy'));
  const repository = await repositoryOf(io.cwd, io.env);
  const manifestFile = (await locateManifest(io.cwd, flags.string('manifest'), { required: true }))!;
  const manifest = await loadManifest(manifestFile);
  const settings: WorkflowSettings = {
    serviceUrl: serviceUrlOf(flags.string('base-url'), io.env),
    siteDir: repository.siteDir,
    manifest: flags.string('manifest') === undefined ? undefined : path.relative(io.cwd, manifest.file).split(path.sep).join('/'),
    lockFile: flagPath(io.cwd, flags.string('lock-file')),
    base: repository.base,
    schedules: distinctSchedules(manifest.specs.map((spec) => spec.schedule)),
  };
  const files = [{ name: ARTICLES_WORKFLOW, text: articlesWorkflow(settings) }];
  if (deploy !== undefined) files.push({ name: DEPLOY_WORKFLOW, text: deployWorkflow(deploy, settings) });
  const written = files.map((file) => ({ ...file, path: path.join(repository.top, file.name) }));
  const existing = written.filter((file) => existsSync(file.path));
  if (existing.length > 0 && !flags.boolean('force')) {
    const shown = existing.map((file) => shownPath(io.cwd, file.path)).join(' and ');
    throw new ArticleLoaderError('workflow_exists', `${shown} exists already: nothing was written. Pass --force to write over it (your changes to it are lost), or compare it with what init writes in a scratch clone.`);
  }
  await mkdir(path.dirname(written[0]!.path), { recursive: true });
  for (const file of written) await writeFile(file.path, file.text);
  report(output, io.cwd, written.map((file) => file.path), deploy, articlesCron(settings.schedules).said);
  return EXIT_CODES.ok;
}

/** A path given to init, as the workflow's step in the same folder passes it on: relative, with `/`. */
function flagPath(cwd: string, given: string | undefined): string | undefined {
  return given === undefined ? undefined : path.relative(cwd, path.resolve(cwd, given)).split(path.sep).join('/');
}

function distinctSchedules(schedules: readonly (Schedule | undefined)[]): Schedule[] {
  const byKey = new Map<string, Schedule>();
  for (const schedule of schedules) if (schedule !== undefined) byKey.set(schedule.key, schedule);
  return [...byKey.values()];
}

/** What was written, and what only the owner can do on GitHub: the secret and the setting (and Pages' source or the hook's secret). */
function report(output: CommandContext['output'], cwd: string, files: readonly string[], deploy: DeployTarget | undefined, when: string): void {
  const secrets = [KEY_SECRET, ...(deploy === 'hook' ? [DEPLOY_HOOK_SECRET] : [])];
  const settings = ['Settings → Actions → General → Workflow permissions: "Allow GitHub Actions to create and approve pull requests"'];
  if (deploy === 'pages') settings.push('Settings → Pages → Build and deployment → Source: "GitHub Actions"');
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'init', exitCode: EXIT_CODES.ok, written: files, secrets, settings, runs: when });
    return;
  }
  for (const file of files) output.out(output.style.green(`✓ Wrote ${shownPath(cwd, file)}`));
  output.out(`  The articles run ${when}, and from the Actions tab (Articles → Run workflow, with a dry run first).`);
  output.out('');
  output.out('Once, on GitHub:');
  output.out(`  - the secret ${KEY_SECRET}: Settings → Secrets and variables → Actions → New repository secret, your key as its value`);
  if (deploy === 'hook') output.out(`  - the secret ${DEPLOY_HOOK_SECRET}: your host's deploy hook URL, the same way`);
  for (const setting of settings) output.out(`  - the setting ${setting}`);
  output.out('Then commit and push the workflow. Guide: docs/autopilot.md in the package.');
}
