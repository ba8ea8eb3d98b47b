// One unattended run, in the order that keeps the money rule when the job dies at any point: select within the caps, create (a checkpoint after each lock write, before the next create leaves), wait, checkpoint, check, approve, checkpoint; then what the report says.
import { approve } from '../review/approvals.js';
import {
  recordDates, recordedDates, syncArticles, type SyncClient, type SyncEvent, type SyncResult, type SyncService
} from '../sync/index.js';
import { calendarDates, unrecordedDates } from '../manifest/index.js';
import { Checkpoints } from './checkpoints.js';
import type { AutopilotRunOptions, AutopilotService } from './run-options.js';
import { summarize, type RunRecord } from './run-summary.js';
import type { AutopilotSummary } from './summary.js';
import { surveyRun, type Survey } from './survey.js';

/** The engine's options every step of the run shares. */
function engineOptions(options: AutopilotRunOptions, client: SyncClient, survey: Survey) {
  const service: SyncService = options.onEmulator ? 'emulator' : 'remote';
  return {
    manifestSlugs: options.manifest.specs.map((spec) => spec.slug),
    lockFile: survey.state.lockFile,
    client,
    service,
    frozen: false,
    onFailure: 'skip' as const,
    idempotentCreates: false,
    concurrency: options.concurrency,
    ...(options.poll === undefined ? {} : { poll: options.poll }),
    ...(options.perMonth === undefined ? {} : { perMonth: options.perMonth }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
}

/** The manifest's specs with the chosen ones first, in the order they were chosen: the engine creates in spec order. */
function inSelectionOrder(manifest: AutopilotRunOptions['manifest'], survey: Survey): AutopilotRunOptions['manifest']['specs'] {
  const rank = new Map(survey.selection.chosen.map((candidate, index) => [candidate.slug, index]));
  const chosen = manifest.specs.filter((spec) => rank.has(spec.slug)).sort((a, b) => rank.get(a.slug)! - rank.get(b.slug)!);
  return [...chosen, ...manifest.specs.filter((spec) => !rank.has(spec.slug))];
}

/** Creates the selection in its order, without waiting, a checkpoint after each lock write before the next create leaves. */
async function createSelected(options: AutopilotRunOptions, client: SyncClient, survey: Survey, checkpoints: Checkpoints): Promise<SyncResult> {
  const { manifest } = options;
  const chosen = new Set(survey.selection.chosen.filter((c) => c.kind !== 'refresh').map((c) => c.slug));
  const refresh = survey.selection.chosen.flatMap((c) => (c.age === undefined ? [] : [c.age]));
  const creates = new Set(survey.plan.creates.map((article) => article.slug));
  // The dates the schedule gives are kept from the first create on, so an article made ahead of its date keeps that date.
  const proposed = unrecordedDates(calendarDates(manifest.specs, recordedDates(survey.state.lock), options.now));
  if (Object.keys(proposed).length > 0) await recordDates(survey.state.lockFile, proposed);
  return syncArticles({
    ...engineOptions(options, client, survey),
    specs: inSelectionOrder(manifest, survey).filter((spec) => !creates.has(spec.slug) || chosen.has(spec.slug)),
    budget: options.perRun,
    refresh,
    wait: false,
    afterLockWrite: () => checkpoints.ask('autopilot: record the articles being created'),
    onEvent: (event: SyncEvent) => {
      if (event.type === 'created') options.progress(`created ${event.slug} ${event.articleId}`);
    },
  });
}

/** Waits for every article being written (this run's and earlier runs'), up to the timeout. Creates nothing. */
async function waitForArticles(options: AutopilotRunOptions, client: SyncClient, survey: Survey, waiting: readonly string[]): Promise<SyncResult> {
  const names = new Set(waiting);
  options.progress(`waiting for ${waiting.length} article${waiting.length === 1 ? '' : 's'} (up to ${options.timeoutText})`);
  return syncArticles({
    ...engineOptions(options, client, survey),
    specs: options.manifest.specs.filter((spec) => names.has(spec.slug)),
    budget: 0,
    wait: true,
    timeoutMs: options.timeoutMs,
  });
}

/** The articles of the manifest still being written or not fetched after the create phase. */
function toWaitFor(result: SyncResult | undefined, survey: Survey): string[] {
  const pending = new Set(survey.plan.articles.filter((a) => a.action === 'wait' || a.action === 'fetch').map((a) => a.slug));
  for (const article of result?.articles ?? []) if (article.outcome === 'pending') pending.add(article.slug);
  return [...pending];
}

/** Runs autopilot once; the summary says what it did and what the report shows. */
export async function runAutopilot(options: AutopilotRunOptions): Promise<AutopilotSummary> {
  const survey = await surveyRun({ ...options });
  const record: RunRecord = { created: [], results: [], approved: [] };
  const work = survey.selection.chosen.length + survey.plan.counts.wait + survey.plan.counts.fetch;
  if (options.dryRun || work === 0) return summarize(options, survey, record);
  const checkpoints = new Checkpoints(options.branch, (message) => options.progress(`checkpoint ${message}`));
  const service = await options.connect(`autopilot needs the article service to create ${survey.selection.chosen.length} and wait for ${survey.plan.counts.wait + survey.plan.counts.fetch} articles`);
  try {
    let created: SyncResult | undefined;
    if (survey.selection.chosen.length > 0) {
      created = await createSelected(options, service.client, survey, checkpoints);
      record.results.push(created);
      record.created = created.articles.filter((a) => a.action === 'create' && (a.outcome === 'pending' || a.outcome === 'finished')).map((a) => a.slug);
    }
    const waiting = toWaitFor(created, survey);
    if (waiting.length > 0) record.results.push(await waitForArticles(options, service.client, survey, waiting));
  } catch (error) {
    // Stopped (the job was cancelled): the ids recorded so far reach the branch before the run ends, if it can still push.
    if (options.signal?.aborted === true) await checkpoints.ask('autopilot: stopped; record the articles created so far').catch(() => undefined);
    throw error;
  } finally {
    await service.close();
  }
  await checkpoints.ask('autopilot: the articles written');
  await approveClean(options, survey, record);
  if (record.approved.length > 0) await checkpoints.ask('autopilot: approve the articles with no error finding');
  return summarize(options, survey, record);
}

/** With `review: true`: approves the run's finished articles that have no error finding; the rest wait for a person. */
async function approveClean(options: AutopilotRunOptions, survey: Survey, record: RunRecord): Promise<void> {
  record.finished = finishedInRun(record);
  record.findings = await options.findings(record.finished);
  if (options.manifest.review !== true) return;
  const clean = record.finished.filter((slug) => !(record.findings?.get(slug) ?? []).some((f) => f.severity === 'error'));
  if (clean.length === 0) return;
  const changes = await approve({ lockFile: survey.state.lockFile, slugs: options.manifest.specs.map((spec) => spec.slug) }, clean);
  record.approved = changes.filter((change) => change.changed).map((change) => change.slug);
}

/** The slugs whose article finished during this run (created now, or by an earlier run and waited for now). */
function finishedInRun(record: RunRecord): string[] {
  const finished = new Set<string>();
  for (const result of record.results) for (const article of result.articles) if (article.outcome === 'finished') finished.add(article.slug);
  return [...finished];
}
