// From what a run did to what its report says: the run's articles with their titles, words and findings (or, when it brought nothing new, those its branch holds unmerged), the review, the dates, the spending against the caps, and what is left.
import { titleOf } from '../review/article-title.js';
import { isDeepStrictEqual } from 'node:util';
import { billedByService, emptyLockFile, monthOf, parseLockFile, readLockFile, recordedWords, spentIn, type LockFile, type SyncResult } from '../sync/index.js';
import type { AutopilotRunOptions } from './run-options.js';
import { lockTextOf, type Survey } from './survey.js';
import { headlineOf, outcomeOf, type AutopilotSummary, type ReportArticle, type ReportFinding } from './summary.js';

/** What the run did, as it went. */
export interface RunRecord {
  /** Slugs created by this run. */
  created: string[];
  /** The engine's results: the create phase, then the wait. */
  results: SyncResult[];
  /** Slugs whose article finished during the run. */
  finished?: string[];
  findings?: Map<string, ReportFinding[]>;
  /** Approved by this run. */
  approved: string[];
  /** Nothing new, but the branch holds an earlier run's work its base lacks; `finished` then lists the articles it brings. */
  unmerged?: boolean;
  /** With `unmerged`: those of them the base has under an earlier id. */
  refreshed?: string[];
}

/** The title a reviewer knows an article by: its first `<h1>` (else `<title>`), else its keyword. */
async function titleFor(survey: Survey, lock: LockFile, slug: string, keyword: string): Promise<string> {
  const entry = lock.articles[slug];
  if (entry?.output === undefined || entry.articleId === undefined) return keyword;
  const cached = await survey.state.cache.readFor(entry.output, { lockFile: survey.state.lockFile, slug, articleId: entry.articleId, keyword: entry.keyword }).catch(() => undefined);
  return (cached === undefined ? undefined : titleOf(cached.html)) ?? keyword;
}

/** Each article that finished in the run, with its title, words and findings, in manifest order. */
async function runArticles(options: AutopilotRunOptions, survey: Survey, lock: LockFile, record: RunRecord): Promise<ReportArticle[]> {
  const finished = new Set(record.finished ?? []);
  const kinds = new Map<string, ReportArticle['kind']>([...(record.refreshed ?? []).map((slug) => [slug, 'refresh'] as const), ...survey.selection.chosen.map((c) => [c.slug, c.kind] as const)]);
  const articles: ReportArticle[] = [];
  for (const spec of options.manifest.specs) {
    if (!finished.has(spec.slug)) continue;
    const entry = lock.articles[spec.slug];
    const words = entry === undefined || !billedByService(entry) ? undefined : recordedWords(entry);
    articles.push({
      slug: spec.slug,
      title: await titleFor(survey, lock, spec.slug, spec.keyword),
      kind: kinds.get(spec.slug) ?? 'finished',
      ...(words === undefined ? {} : { words }),
      findings: record.findings?.get(spec.slug) ?? [],
    });
  }
  return articles;
}

/** The run's spending, this month's from the lock file's tally, against the caps. */
function spendingOf(options: AutopilotRunOptions, survey: Survey, lock: LockFile, record: RunRecord, articles: readonly ReportArticle[]): AutopilotSummary['spending'] {
  const month = monthOf(new Date());
  const spent = spentIn(lock, month);
  const created = new Set(record.created);
  const estimates = new Map(survey.plan.creates.map((article) => [article.slug, article.estimate?.words ?? 0]));
  const runWords = articles.filter((a) => created.has(a.slug)).reduce((sum, a) => sum + (a.words ?? 0), 0);
  const estimated = record.created.filter((slug) => !articles.some((a) => a.slug === slug)).reduce((sum, slug) => sum + (estimates.get(slug) ?? 0), 0);
  const wouldCreate = options.dryRun ? survey.selection.chosen.length : record.created.length;
  return {
    runArticles: wouldCreate,
    runWords,
    runEstimatedWords: estimated,
    perRun: options.perRun,
    ...(options.perMonth === undefined ? {} : { perMonth: options.perMonth }),
    month,
    monthArticles: spent.articles,
    monthWords: spent.words,
    onEmulator: options.onEmulator,
  };
}

/** Whether the run left changes for a pull request: the branch's commits of this run, or (in place) a changed lock file. */
async function changedInRun(options: AutopilotRunOptions, survey: Survey): Promise<boolean> {
  if (options.dryRun) return false;
  if (options.branch.startedFrom !== 'in-place') return options.branch.changedInRun();
  return (await lockTextOf(survey.state.lockFile)) !== survey.lockText;
}

/** Every article of the manifest still being written: the next run polls it, for free. */
function stillWriting(options: AutopilotRunOptions, lock: LockFile): AutopilotSummary['stillWriting'] {
  return options.manifest.specs.flatMap((spec) => {
    const entry = lock.articles[spec.slug];
    return entry?.status === 'pending' && entry.articleId !== undefined ? [{ slug: spec.slug, articleId: entry.articleId }] : [];
  });
}

/**
 * A run that brought nothing new, on a branch that holds an earlier run's work its base lacks (a job that died after its
 * last push and before the pull-request step, or a pull request closed without merging): the finished articles the branch
 * brings, so the report lists them and the workflow opens the pull request that shows them (exit 8).
 */
async function noteUnmerged(options: AutopilotRunOptions, survey: Survey, record: RunRecord, lock: LockFile): Promise<void> {
  if (options.dryRun || options.branch.changedInRun()) return;
  const base = await options.branch.unmerged(survey.state.lockFile);
  if (base === undefined) return;
  let before: LockFile;
  try {
    before = parseLockFile(base.baseLockText, survey.state.lockFile);
  } catch {
    // A base whose lock file does not parse vouches for nothing: every finished article of the branch is listed.
    before = emptyLockFile();
  }
  const brought = options.manifest.specs.map((spec) => spec.slug).filter((slug) => lock.articles[slug]?.status === 'finished' && !isDeepStrictEqual(lock.articles[slug], before.articles[slug]));
  record.unmerged = true;
  record.finished = brought;
  // An article the base already had under another id is a refresh (or a regeneration) the branch brings.
  record.refreshed = brought.filter((slug) => before.articles[slug]?.articleId !== undefined && before.articles[slug]?.articleId !== lock.articles[slug]?.articleId);
  record.findings = await options.findings(brought);
}

/** The summary of a run: what the report and --json show, and the outcome the exit code comes from. */
export async function summarize(options: AutopilotRunOptions, survey: Survey, record: RunRecord): Promise<AutopilotSummary> {
  const lock = options.dryRun ? survey.state.lock : await readLockFile(survey.state.lockFile);
  await noteUnmerged(options, survey, record, lock);
  const articles = await runArticles(options, survey, lock, record);
  const approved = new Set(record.approved);
  const inRun = new Set([...record.created, ...(record.finished ?? [])]);
  const specs = options.manifest.specs.filter((spec) => inRun.has(spec.slug));
  const failed = record.results.flatMap((r) => r.articles).filter((a) => a.outcome === 'failed').map((a) => ({ slug: a.slug, code: a.error?.code ?? 'failed', message: a.error?.message ?? 'the article failed' }));
  const draft: Omit<AutopilotSummary, 'headline'> = {
    outcome: outcomeOf(await changedInRun(options, survey), survey.selection.later.length, record.unmerged === true),
    dryRun: options.dryRun,
    review: options.manifest.review === true,
    articles,
    waiting: options.manifest.review === true ? articles.filter((a) => !approved.has(a.slug) && lock.articles[a.slug]?.approved === undefined).map((a) => ({ slug: a.slug, title: a.title, errors: a.findings.filter((f) => f.severity === 'error').length })) : [],
    approved: record.approved,
    goingLive: specs.map((spec) => ({ slug: spec.slug, ...(survey.dates.has(spec.slug) && survey.dates.get(spec.slug)! > options.now ? { date: survey.dates.get(spec.slug)!.toISOString() } : {}) })).sort((a, b) => (a.date ?? '').localeCompare(b.date ?? '')),
    stillWriting: stillWriting(options, lock),
    spending: spendingOf(options, survey, lock, record, articles),
    later: survey.selection.later.map((c) => ({ slug: c.slug, kind: c.kind, heldBy: c.heldBy })),
    notYet: survey.selection.notYet.length,
    unknown: options.manifest.specs.filter((spec) => lock.articles[spec.slug]?.status === 'unknown').map((spec) => spec.slug),
    failed,
  };
  return { ...draft, headline: headlineOf(draft) };
}
