// `astro-article-loader sync`: the sync engine outside Astro, with live progress, the loader's spending rules and a clean Ctrl-C.
import { currentTime } from '../../lang/clock.js';
import type { Manifest } from '../../manifest/index.js';
import { billedByService, blockedCreates, DEFAULT_CREATE_CONCURRENCY, DEFAULT_POLL_TIMING, DEFAULT_RUN_TIMEOUT_MS, describeCreateReason, OFFLINE_POLL_MS, planSync, pollTiming, readLockState, recordedWords, syncArticles, unknownCreatesLines, type SyncResult } from '../../sync/index.js';
import { COMMON_FLAG_HELP, type ParsedFlags } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { errorJson, reportError } from '../error-report.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { formatCount, formatDuration, plural, type CommandIo, type Output } from '../output.js';
import { articleHeadJson } from '../plan-report.js';
import { openProject } from '../project-files.js';
import { recordCalendar } from '../calendar-report.js';
import type { ProgressDisplay } from '../progress-display.js';
import { connect, SERVICE_FLAG_HELP, SERVICE_FLAGS, type ServiceConnection } from '../service-connection.js';
import { SyncProgress } from '../sync-progress.js';
import { UsageError } from '../usage-error.js';
import { dueText, refreshRun, type RefreshRun } from '../refresh-run.js';
import { checkRetryFailed, planOptionsOf, spendingRulesOf, SYNC_RULE_FLAGS, SYNC_RULE_HELP, SYNC_RULE_SELECTIONS, syncRules, withManifestBudget, type SyncRules } from '../spending-flags.js';

export const SYNC_COMMAND: CommandDefinition = {
  name: 'sync',
  summary: 'Create the missing articles and wait for them, outside of an Astro build.',
  flags: {
    ...SYNC_RULE_FLAGS,
    ...SERVICE_FLAGS,
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    'poll-interval': { type: 'string' },
    'no-wait': { type: 'boolean' },
    offline: { type: 'boolean' },
    refresh: { type: 'boolean' },
  },
  selectionFlags: SYNC_RULE_SELECTIONS,
  help: `Usage: astro-article-loader sync [options]

Runs the same sync as an Astro build: reuses every article already paid for, creates the
missing ones (within the budget, never in frozen mode), waits for them, caches each output
and records every article id in the lock file as soon as it exists. Ctrl-C stops cleanly
(the lock file stays consistent and keeps every id; run sync again to resume); a second
Ctrl-C quits at once.

The API key is read from ARTICLES_API_KEY only (never a flag), the service's address from
--base-url or ARTICLES_API_URL.

Options:
${COMMON_FLAG_HELP}
${SYNC_RULE_HELP}
${SERVICE_FLAG_HELP}
  --concurrency <n>      Creates in flight at once (default ${DEFAULT_CREATE_CONCURRENCY})
  --timeout <duration>   Longest wait for articles, e.g. 90s, 30m, 1h (default 30m);
                         unfinished ones keep their ids and resume next time
  --poll-interval <d>    First and shortest gap between two polls of an article
                         (default ${DEFAULT_POLL_TIMING.initialMs / 1000}s first, ${DEFAULT_POLL_TIMING.minMs / 1000}s shortest, ${OFFLINE_POLL_MS}ms with --offline; then
                         adapted to its progress, never longer than the article has
                         taken so far, up to ${DEFAULT_POLL_TIMING.maxMs / 1000}s)
  --no-wait              Create what is missing and return without waiting
  --offline              Use an embedded emulator (placeholder articles, written at
                         once, free), as the loader does when no key is configured
  --refresh              Also pay for the articles due for a refresh (older than their
                         refreshAfter), oldest first, as many as the budget leaves;
                         each is served until its new article is finished

Examples:
  ARTICLES_API_URL=https://… ARTICLES_API_KEY=… npx astro-article-loader sync
  npx astro-article-loader sync --budget 50 --concurrency 8
  npx astro-article-loader sync --no-wait          # from cron: queue, check later
  npx astro-article-loader sync --retry-failed=best-hiking-boots
  npx astro-article-loader sync --refresh --budget 5   # from cron: refresh 5 a day
  npx astro-article-loader sync --offline          # try it without an account
  CI=1 npx astro-article-loader sync               # frozen: fails if anything is missing

${EXIT_CODE_HELP}`,
  body: runSync,
};

/** What the sync does that needs the service, for the "not configured" message. */
function serviceWork(plan: { creates: unknown[]; counts: { wait: number; fetch: number } }, willCreate: boolean): string {
  const parts = [
    willCreate ? `create ${plural(plan.creates.length, 'article')}` : '',
    plan.counts.wait > 0 ? `wait for ${plural(plan.counts.wait, 'article')}` : '',
    plan.counts.fetch > 0 ? `fetch ${plural(plan.counts.fetch, 'finished article')} missing from the cache` : '',
  ].filter((p) => p !== '');
  return `sync needs the article service to ${parts.join(' and ')}`;
}

function articleJson(article: SyncResult['articles'][number]): Record<string, unknown> {
  return {
    ...articleHeadJson(article),
    outcome: article.outcome,
    articleId: article.entry?.articleId ?? null,
    reason: article.reason === undefined ? null : describeCreateReason(article.reason),
    error: article.error ?? null,
    serving: article.serve === undefined ? null : { articleId: article.serve.articleId, current: article.serve.current, emulator: article.serve.emulator === true },
    emulator: article.entry?.emulator === true,
  };
}

const OUTCOME_MARK: Record<string, string> = { failed: '✗', unknown: '?', pending: '…' };

/**
 * The words of the run, as recorded: of the articles it created and saw finish (the totals' recordedWords), apart from
 * those created before (by an earlier run, or another build) that finished now; and the estimate of those it created.
 */
function wordsLine(result: SyncResult): string {
  const t = result.totals;
  const finished = result.articles.filter((a) => a.outcome === 'finished');
  const earlier = finished.filter((a) => a.action !== 'create');
  const earlierWords = earlier.reduce((sum, a) => sum + (a.entry !== undefined && billedByService(a.entry) ? (recordedWords(a.entry) ?? 0) : 0), 0);
  const parts = [
    finished.length > earlier.length ? `${formatCount(t.recordedWords)} billed for the ${plural(finished.length - earlier.length, 'article')} created and finished in this run (as recorded)` : '',
    earlier.length > 0 ? `${formatCount(earlierWords)} recorded for the ${plural(earlier.length, 'article')} created before and finished in this run` : '',
    t.created > 0 ? `~${formatCount(t.estimatedWords)} estimated for the ${plural(t.created, 'new article')} when created` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? '' : `  Words: ${parts.join('; ')}.`;
}

function printSummary(output: Output, io: CommandIo, result: SyncResult, connection: ServiceConnection | undefined): void {
  const { style } = output;
  const t = result.totals;
  const parts = [
    t.created > 0 ? `${formatCount(t.created)} created` : '',
    t.finished - t.created > 0 ? `${formatCount(t.finished - t.created)} finished after waiting` : '',
    t.fetched > 0 ? `${formatCount(t.fetched)} fetched` : '',
    t.restored > 0 ? `${formatCount(t.restored)} restored` : '',
    `${formatCount(t.reused)} reused`,
    t.pending > 0 ? `${formatCount(t.pending)} pending` : '',
    t.failed > 0 ? `${formatCount(t.failed)} failed` : '',
    t.unknown > 0 ? `${formatCount(t.unknown)} unknown` : '',
  ].filter((p) => p !== '');
  const ok = result.failures.length === 0;
  const mark = ok ? style.green('✓') : style.red('✗');
  output.out(`${mark} ${style.bold(`Synced ${plural(t.articles, 'article')}`)} in ${formatDuration(result.durationMs)}: ${parts.join(', ')}.`);
  const words = wordsLine(result);
  if (words !== '') output.out(words);
  const retries = connection?.retries.describe() ?? '';
  output.out(`  Requests: ${formatCount(t.requests)}${retries === '' ? '' : ` · ${retries}`}${connection?.offline === true ? ' (embedded emulator)' : ''}`);
  if (t.orphans > 0) output.out(`  ${plural(t.orphans, 'lock entry', 'lock entries')} not in the manifest: kept; \`astro-article-loader prune\` removes them.`);
  const placeholders = result.articles.filter((a) => a.entry?.emulator === true).length;
  if (placeholders > 0) {
    output.out(
      `  ${plural(placeholders, 'article')} ${placeholders === 1 ? 'is' : 'are'} written offline by the embedded emulator (placeholder text or your own model, not paid for): ` +
        'a sync against the real service creates them again, within the budget, and serves these until the real ones are finished.',
    );
  }
  const changed = t.created + t.finished + t.fetched + t.restored + t.pending + t.unknown > 0;
  if (changed) output.out(`  Commit ${shownPath(io.cwd, result.lockFile)} and ${shownPath(io.cwd, result.cacheDir)}/ so every build reuses these articles.`);
  if (!ok) {
    output.out();
    output.out(style.bold(`Not ready (${result.failures.length}):`));
    for (const failure of result.failures.slice(0, 50)) {
      const error = failure.error === undefined ? '' : ` — ${failure.error.code}: ${failure.error.message}`;
      output.out(`  ${style.red(OUTCOME_MARK[failure.outcome] ?? '✗')} ${style.bold(failure.slug)} ${failure.outcome}${error}`);
    }
    if (result.failures.length > 50) output.out(`  … and ${result.failures.length - 50} more (--json lists all)`);
    const hints = [
      result.failures.some((f) => f.outcome === 'pending') ? 'run sync again to keep waiting (ids are kept)' : '',
      // --retry-failed is for articles the lock file records as failed; one that was never sent just needs another run.
      result.failures.some((f) => f.outcome === 'failed' && f.entry?.status === 'failed') ? '--retry-failed creates failed articles again (paid)' : '',
      result.failures.some((f) => f.outcome === 'failed' && f.entry?.status !== 'failed') ? 'run sync again once the service answers (what it never received is not recorded and costs nothing)' : '',
      // A 404 may be a passing fault of the service's: the article it billed may still be on its queue page.
      result.failures.some((f) => f.error?.code === 'not_found') ? 'an article the service answered 404 for, if you find it on its queue page, is attached again for free by `adopt <slug> <articleId>`' : '',
    ].filter((h) => h !== '');
    if (hints.length > 0) output.out(`Next: ${hints.join('; ')}.`);
    const unknown = result.failures.filter((f) => f.outcome === 'unknown');
    for (const line of unknownCreatesLines(unknown)) output.out(style.yellow(line));
  }
}

async function runSync(context: CommandContext): Promise<ExitCode> {
  const { flags, output, io } = context;
  const settings = syncSettings(flags, io.env);
  const { manifest, lockFile } = await openProject(io.cwd, flags, output);
  withManifestBudget(settings.rules, flags, manifest);
  const state = await readLockState(lockFile, { checkOutputs: flags.boolean('refresh') });
  checkRetryFailed(settings.rules, state.lock);
  // The schedule's dates are given once and kept; a frozen run writes nothing, as a frozen build does not.
  const recorded = settings.rules.frozen ? 0 : await recordCalendar(manifest, lockFile, state.lock, currentTime(io.env));
  if (recorded > 0 && !output.json) output.out(`Recorded ${plural(recorded, 'scheduled date')} in ${shownPath(io.cwd, lockFile)} (\`plan\` shows the calendar); commit it.`);
  if (flags.boolean('refresh')) {
    const refresh = await refreshRun(manifest.specs, { lockFile, lock: state.lock, cacheIndex: await state.cache.index(), rules: settings.rules, service: settings.service, now: currentTime(io.env) });
    settings.rules.refresh = refresh.chosen;
    output.err(refreshNotice(refresh));
  }
  return executeSync(context, { command: 'sync', manifest, specs: manifest.specs, lockFile, settings });
}

/** What `sync --refresh` says before it starts: what it pays for, and what stays due. */
function refreshNotice(refresh: RefreshRun): string {
  if (refresh.due.length === 0) return 'sync --refresh: no article is due for a refresh.';
  const later = refresh.later.length === 0 ? '' : `; ${plural(refresh.later.length, 'more is', 'more are')} due and wait${refresh.later.length === 1 ? 's' : ''} for a later run (budget): ${refresh.later.map((age) => age.slug).join(', ')}`;
  const chosen = refresh.chosen.length === 0 ? 'none this run' : refresh.chosen.map(dueText).join(', ');
  return `sync --refresh refreshes ${plural(refresh.chosen.length, 'due article')}, oldest first: ${chosen}${later}. The current articles are served until the new ones are finished.`;
}

/** One run of the engine as a command runs it: what to sync, with which settings, and which command asked. */
export interface SyncRun {
  command: 'sync' | 'regenerate';
  manifest: Manifest;
  /** The manifest's specs, or the ones the command is about (`regenerate`). */
  specs: Manifest['specs'];
  lockFile: string;
  settings: SyncSettings;
}

/** The live display on a terminal, else a line per event (loaded only by a run that gets this far). */
async function progressDisplay(output: Output, io: CommandIo, progress: SyncProgress): Promise<ProgressDisplay> {
  const { LineProgressDisplay, LiveProgressDisplay } = await import('../progress-display.js');
  return io.stderr.isTTY === true && io.env.TERM !== 'dumb' ? new LiveProgressDisplay(output, progress) : new LineProgressDisplay(output);
}

/** Connects if needed, runs the engine with live progress and a clean Ctrl-C, and reports the result. */
export async function executeSync({ flags, output, io, verbose }: CommandContext, run: SyncRun): Promise<ExitCode> {
  const { settings, lockFile } = run;
  const connection = await connectIfNeeded(run.specs, lockFile, settings, { flags, output, io });
  const progress = new SyncProgress();
  const display = output.json ? undefined : await progressDisplay(output, io, progress);
  const controller = new AbortController();
  const stop = trapSignals(output, progress, display, controller);

  let result: SyncResult;
  try {
    const { rules, poll } = settings;
    result = await syncArticles({
      specs: run.specs,
      manifestSlugs: run.manifest.specs.map((spec) => spec.slug),
      lockFile,
      client: connection?.service,
      service: settings.service,
      budget: rules.budget,
      ...(rules.perMonth === undefined ? {} : { perMonth: rules.perMonth }),
      frozen: rules.frozen,
      onFailure: 'skip',
      // A damaged cached output is found by its hash and fetched again (one GET). Found by the preview, it makes the run
      // connect; a run with no service to ask could fetch nothing, so it does not read every output a second time.
      verifyCache: connection !== undefined,
      concurrency: settings.concurrency,
      timeoutMs: settings.timeoutMs,
      ...(poll === undefined ? {} : { poll }),
      wait: !flags.boolean('no-wait'),
      signal: controller.signal,
      ...planOptionsOf(rules),
      idempotentCreates: connection?.idempotentCreates ?? rules.idempotentCreates,
      onEvent: (event) => {
        if (display === undefined) return;
        display.notes(progress.apply(event));
      },
    });
  } catch (error) {
    display?.stop();
    const stoppedBy = stop.stoppedBy();
    if (stoppedBy !== undefined && (error as { code?: unknown }).code === 'aborted') return reportStopped(output, io, { command: run.command, stoppedBy, error, created: progress.created, lockFile });
    return reportError(output, run.command, error, { verbose });
  } finally {
    stop.release();
    await connection?.close();
  }
  display?.stop();
  const exitCode: ExitCode = result.failures.length > 0 ? EXIT_CODES.failure : EXIT_CODES.ok;
  if (output.json) {
    output.document(syncJson(exitCode, run, result, connection));
  } else {
    printSummary(output, io, result, connection);
  }
  return exitCode;
}

/** What the flags (and the environment) ask of this run, besides the manifest and the lock file. */
export function syncSettings(flags: ParsedFlags, env: NodeJS.ProcessEnv) {
  const offline = flags.boolean('offline');
  if (offline && flags.has('base-url')) throw new UsageError('--offline and --base-url contradict each other: --offline writes placeholder articles on an embedded emulator, --base-url names a service; pass one.');
  // The embedded emulator honours Idempotency-Key, so unknown creates are repeated safely there.
  const rules: SyncRules = { ...syncRules(flags, env), ...(offline ? { idempotentCreates: true } : {}) };
  const concurrency = flags.wholeNumber('concurrency', 1, DEFAULT_CREATE_CONCURRENCY);
  const timeoutMs = flags.duration('timeout', DEFAULT_RUN_TIMEOUT_MS);
  const poll = pollTiming(offline ? 'emulator' : 'remote', flags.has('poll-interval') ? flags.duration('poll-interval', 0) : undefined);
  return { offline, rules, concurrency, timeoutMs, poll, service: offline ? ('emulator' as const) : ('remote' as const) };
}

export type SyncSettings = ReturnType<typeof syncSettings>;

/**
 * A first look without the inter-process lock (no request): does this run need the service at all?
 * Only then is it connected (and its configuration required).
 */
async function connectIfNeeded(
  specs: Manifest['specs'],
  lockFile: string,
  settings: SyncSettings,
  { flags, output, io }: { flags: ParsedFlags; output: Output; io: CommandIo },
): Promise<ServiceConnection | undefined> {
  const { rules, offline } = settings;
  const state = await readLockState(lockFile, { checkOutputs: true });
  const preview = planSync(specs, state.lock, await state.cache.index({ verify: true }), { ...planOptionsOf(rules), service: settings.service });
  // Frozen or over budget: the engine stops before any request, with the message that matters more than a missing key.
  const blocked = blockedCreates(preview, spendingRulesOf(rules, state.lock, settings.service), lockFile) !== undefined;
  const willCreate = preview.creates.length > 0 && !blocked;
  const needsService = !blocked && (willCreate || preview.counts.wait > 0 || preview.counts.fetch > 0);
  if (!needsService) return undefined;
  const connection = await connect(io.env, flags, { warn: (message) => output.err(output.errStyle.yellow(message)), command: 'sync', why: serviceWork(preview, willCreate), offline, concurrency: Math.max(8, settings.concurrency), idempotentCreates: rules.idempotentCreates });
  if (offline) output.err(output.errStyle.yellow('Offline: an embedded emulator writes placeholder articles, for free. Use ARTICLES_API_KEY and ARTICLES_API_URL for real ones.'));
  return connection;
}

/**
 * Ctrl-C (or SIGTERM) stops the run cleanly: lock file writes finish, created articles keep their
 * ids. A second one quits at once. `release` removes the handlers.
 */
function trapSignals(output: Output, progress: SyncProgress, display: ProgressDisplay | undefined, controller: AbortController) {
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    const code = signal === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted;
    if (stoppedBy !== undefined) {
      // Every lock write is atomic and each id is recorded before waiting, so quitting now is still safe.
      display?.stop();
      output.err('Quit at once. The lock file is intact; run sync again to resume.');
      process.exit(code);
    }
    stoppedBy = signal;
    progress.stopping = true;
    display?.message('Stopping: finishing lock file writes; created articles keep their ids. Press Ctrl-C again to quit at once.');
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    stoppedBy: (): NodeJS.Signals | undefined => stoppedBy,
    release: (): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}

/** A run stopped by a signal: what was created keeps its id; run sync again to resume. */
function reportStopped(output: Output, io: CommandIo, stopped: { command: SyncRun['command']; stoppedBy: NodeJS.Signals; error: unknown; created: number; lockFile: string }): ExitCode {
  const { created } = stopped;
  const exitCode = stopped.stoppedBy === 'SIGTERM' ? EXIT_CODES.terminated : EXIT_CODES.interrupted;
  if (output.json) {
    output.document({ schemaVersion: 1, command: stopped.command, exitCode, created, error: errorJson(stopped.error) });
  } else {
    output.err(
      `Stopped. ${plural(created, 'article')} created in this run ${created === 1 ? 'keeps its id' : 'keep their ids'} in ` +
        `${shownPath(io.cwd, stopped.lockFile)}; run \`astro-article-loader sync\` again to resume without paying twice.`,
    );
  }
  return exitCode;
}

/** The document of `sync --json` (and `regenerate --json`). */
function syncJson(exitCode: ExitCode, run: SyncRun, result: SyncResult, connection: ServiceConnection | undefined): Record<string, unknown> {
  const { rules } = run.settings;
  return {
    schemaVersion: 1,
    command: run.command,
    exitCode,
    manifest: run.manifest.file,
    lockFile: result.lockFile,
    cacheDir: result.cacheDir,
    offline: connection?.offline ?? false,
    budget: rules.budget,
    frozen: rules.frozen,
    totals: result.totals,
    durationMs: result.durationMs,
    retries: connection?.retries.toJSON() ?? { total: 0, byKind: {} },
    articles: result.articles.map(articleJson),
    orphans: result.orphans,
  };
}
