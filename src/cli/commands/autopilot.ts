// `astro-article-loader autopilot`: the unattended run of a scheduled job: what is due, within the caps, checkpointed to the run's branch before each create leaves, then waited for, checked and reported in Markdown.
import path from 'node:path';
import type { AutopilotSummary, ReportFinding } from '../../autopilot/summary.js';
import { currentTime } from '../../lang/clock.js';
import { DEFAULT_BUDGET, DEFAULT_CREATE_CONCURRENCY, editsDirFor, pollTiming } from '../../sync/index.js';
import { manifestQuality } from '../../quality/index.js';
import { COMMON_FLAG_HELP, type ParsedFlags } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { currentFindings } from '../current-findings.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { locateLock, locateManifest } from '../manifest-location.js';
import type { CommandIo, Output } from '../output.js';
import { openProject, type ProjectFiles } from '../project-files.js';
import { checkedReportPaths, writeReports } from '../report-paths.js';
import { connect, SERVICE_FLAG_HELP, SERVICE_FLAGS, serviceConfigured } from '../service-connection.js';
import { UsageError } from '../usage-error.js';

/** How long a run waits for articles being written, by default. */
const DEFAULT_AUTOPILOT_TIMEOUT = '20m';
/** The run's branch, by default. */
const DEFAULT_BRANCH = 'articles/autopilot';
/** Where downloaded images live by default (the loader's `downloadImages` folder), one of the paths a commit may hold. */
const DEFAULT_IMAGES_DIR = 'public/_articles';

export const AUTOPILOT_COMMAND: CommandDefinition = {
  name: 'autopilot',
  summary: 'The unattended run of a scheduled job: create what is due within the caps, wait, check, report.',
  flags: {
    ...SERVICE_FLAGS,
    report: { type: 'string', multiple: true },
    branch: { type: 'string' },
    remote: { type: 'string' },
    base: { type: 'string' },
    'dry-run': { type: 'boolean' },
    budget: { type: 'string' },
    'no-git': { type: 'boolean' },
    timeout: { type: 'string' },
    offline: { type: 'boolean' },
    concurrency: { type: 'string' },
    'poll-interval': { type: 'string' },
  },
  help: `Usage: astro-article-loader autopilot [options]

The run a scheduled CI job makes (docs/autopilot.md). It continues the pull-request branch
when it exists, else starts it from the base; selects what is due within the manifest's caps
(budget: { perRun, perMonth }): scheduled articles dated within the lookahead (earliest
first), then new entries (manifest order), then due refreshes (oldest first), leaving the
rest for the next run; creates them, committing and pushing the lock file after each lock
write and before the next create leaves; waits; runs the quality checks; with review: true
approves the articles with no error finding; and writes a Markdown report.

Frozen mode does not apply: the caps do. Without a service (ARTICLES_API_URL and
ARTICLES_API_KEY, or --base-url) and without --offline it refuses to run (--dry-run
needs none: it sends no request).

Options:
${COMMON_FLAG_HELP}
${SERVICE_FLAG_HELP}
  --report <file>        Write the Markdown report there (repeatable); a path that cannot
                         be written is refused before anything is spent
  --branch <name>        The pull request's branch (default ${DEFAULT_BRANCH})
  --remote <name>        The remote it is pushed to (default origin)
  --base <branch>        The branch a new run branch starts from (default: the branch
                         checked out when the run starts)
  --dry-run              Plan, select and report; no create, no commit, no push
  --budget <n>           Lower this run's cap (a positive whole number; never above the
                         manifest's caps)
  --no-git               Run in place: no branch, no commit, no push
  --timeout <duration>   Longest wait for articles being written (default ${DEFAULT_AUTOPILOT_TIMEOUT}); the
                         next run keeps polling what is unfinished, for free
  --offline              Use an embedded emulator (placeholder articles, free)
  --concurrency <n>      Creates in flight at once (default ${DEFAULT_CREATE_CONCURRENCY})
  --poll-interval <d>    First and shortest gap between two polls of an article

Progress lines on stdout (stderr with --json): "created <slug> <articleId>" once a create's
id is recorded, "checkpoint <message>" before each commit and push, "waiting for <n>
articles (up to <timeout>)" when the wait starts.

Examples:
  npx astro-article-loader autopilot --report "$RUNNER_TEMP/articles-report.md" --report "$GITHUB_STEP_SUMMARY"
  npx astro-article-loader autopilot --dry-run --no-git
  npx astro-article-loader autopilot --no-git --offline --budget 2

${EXIT_CODE_HELP}`,
  body: runAutopilotCommand,
};

/** The run's settings from its flags, checked before anything is read or spent. */
function autopilotSettings(flags: ParsedFlags, env: NodeJS.ProcessEnv) {
  const offline = flags.boolean('offline');
  const dryRun = flags.boolean('dry-run');
  if (offline && flags.has('base-url')) throw new UsageError('--offline and --base-url contradict each other: --offline writes placeholder articles on an embedded emulator, --base-url names a service; pass one.');
  if (!offline && !dryRun && !serviceConfigured(env, flags)) {
    throw new UsageError(
      'autopilot needs the article service: set ARTICLES_API_URL and ARTICLES_API_KEY (in CI, the key from a secret, in the step\'s env), or pass --base-url. ' +
        'Pass --offline to try it with free placeholder articles: an unattended run never falls back to them by itself.',
      'service_not_configured',
    );
  }
  const budget = flags.has('budget') ? flags.wholeNumber('budget', 1, DEFAULT_BUDGET) : undefined;
  const timeoutText = flags.string('timeout') ?? DEFAULT_AUTOPILOT_TIMEOUT;
  const timeoutMs = flags.duration('timeout', 20 * 60_000);
  const poll = pollTiming(offline ? 'emulator' : 'remote', flags.has('poll-interval') ? flags.duration('poll-interval', 0) : undefined);
  const concurrency = flags.wholeNumber('concurrency', 1, DEFAULT_CREATE_CONCURRENCY);
  return { offline, dryRun, budget, timeoutMs, timeoutText, poll, concurrency, git: !flags.boolean('no-git') };
}

type AutopilotSettings = ReturnType<typeof autopilotSettings>;

/** The paths a commit of the run may ever include: the manifest, the lock file, its cache, its edits and the downloaded images. */
function runPaths(cwd: string, manifestFile: string, lock: { lockFile: string; cacheDir: string }): string[] {
  return [manifestFile, lock.lockFile, lock.cacheDir, editsDirFor(lock.lockFile), path.join(cwd, DEFAULT_IMAGES_DIR)];
}

/**
 * The run's branch: the git part's, or in place (--no-git). A dry run opens it too (it only never commits or pushes), so it
 * reads what a real run would: the pull-request branch, with what earlier runs paid for. Opened before the manifest is read.
 */
async function openBranch(flags: ParsedFlags, io: CommandIo, settings: AutopilotSettings) {
  const { inPlaceRunBranch, openRunBranch } = await import('../../autopilot/run-branch.js');
  if (!settings.git) return inPlaceRunBranch();
  const manifestFile = (await locateManifest(io.cwd, flags.string('manifest'), { required: true }))!;
  const paths = runPaths(io.cwd, manifestFile, locateLock(io.cwd, flags.string('lock-file'), manifestFile));
  return openRunBranch({ cwd: io.cwd, remote: flags.string('remote') ?? 'origin', branch: flags.string('branch') ?? DEFAULT_BRANCH, base: flags.string('base'), paths, env: io.env });
}

/** The findings `check` gives, of the run's articles. */
async function findingsOf(project: ProjectFiles, slugs: readonly string[]): Promise<Map<string, ReportFinding[]>> {
  if (slugs.length === 0) return new Map();
  const all = await currentFindings(project, manifestQuality(project.manifest));
  const wanted = new Set(slugs);
  return new Map([...all].filter(([slug]) => wanted.has(slug)).map(([slug, findings]) => [slug, findings.map(({ severity, code, message }) => ({ severity, code, message }))]));
}

const OUTCOME_CODES: Record<AutopilotSummary['outcome'], ExitCode> = {
  nothing: EXIT_CODES.ok,
  changes: EXIT_CODES.changes,
  unmerged: EXIT_CODES.unmerged,
  capReached: EXIT_CODES.capReached,
};

async function runAutopilotCommand({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const settings = autopilotSettings(flags, io.env);
  const reports = await checkedReportPaths(io.cwd, flags.strings('report'));
  const now = currentTime(io.env);
  const branch = await openBranch(flags, io, settings);
  const project = await openProject(io.cwd, flags, output);
  const { manifest } = project;
  const perRun = Math.min(settings.budget ?? Number.POSITIVE_INFINITY, manifest.budget?.perRun ?? DEFAULT_BUDGET);
  const progress = (line: string): void => (output.json ? output.err(line) : output.out(line));
  const [{ runAutopilot }, { autopilotReport }] = await Promise.all([import('../../autopilot/autopilot-run.js'), import('../../autopilot/report.js')]);
  const stop = trapSignals(output);
  let summary: AutopilotSummary;
  try {
    summary = await runAutopilot({
      manifest,
      lockFile: project.lockFile,
      now,
      perRun,
      perMonth: manifest.budget?.perMonth,
      onEmulator: settings.offline,
      timeoutMs: settings.timeoutMs,
      timeoutText: settings.timeoutText,
      poll: settings.poll,
      concurrency: settings.concurrency,
      dryRun: settings.dryRun,
      branch,
      connect: async (why) => {
        const connection = await connect(io.env, flags, { command: 'autopilot', why, offline: settings.offline, concurrency: Math.max(8, settings.concurrency), idempotentCreates: false, warn: (message) => output.err(output.errStyle.yellow(message)) });
        return { client: connection.service, close: () => connection.close() };
      },
      findings: (slugs) => findingsOf(project, slugs),
      progress,
      signal: stop.signal,
    });
  } catch (error) {
    const stoppedBy = stop.stoppedBy();
    if (stoppedBy === undefined || (error as { code?: unknown }).code !== 'aborted') throw error;
    output.err('Stopped. Every article created keeps its id in the lock file; the next run continues without paying twice.');
    return stoppedBy === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted;
  } finally {
    stop.release();
  }
  const markdown = autopilotReport(summary);
  await writeReports(reports, markdown);
  const exitCode = OUTCOME_CODES[summary.outcome];
  printOutcome(output, summary, markdown, { reports, exitCode });
  return exitCode;
}

/**
 * A cancelled job (SIGINT, SIGTERM) stops cleanly: the creates in flight bring back their ids, which a last checkpoint
 * pushes. A second signal quits at once: every lock write is atomic and each intent was recorded before its create.
 */
function trapSignals(output: Output) {
  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stoppedBy !== undefined) process.exit(signal === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted);
    stoppedBy = signal;
    output.err('Stopping: the creates in flight keep their ids, then a last checkpoint records them. Send it again to quit at once.');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    stoppedBy: (): NodeJS.Signals | undefined => stoppedBy,
    release: (): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** The run's last word: the report itself when it went to no file, else its first line and where it is; or the --json document. */
function printOutcome(output: Output, summary: AutopilotSummary, markdown: string, done: { reports: readonly string[]; exitCode: ExitCode }): void {
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'autopilot', exitCode: done.exitCode, reports: done.reports, ...summary });
    return;
  }
  if (done.reports.length === 0) {
    output.out(markdown.trimEnd());
    return;
  }
  output.out(`Articles: ${summary.headline}. Report written to ${done.reports.join(', ')}.`);
}
