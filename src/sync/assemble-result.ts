// The result of a run: each article's outcome as the run recorded it, what it serves, and the totals.
import { billedByService } from '../contract/emulator-billing.js';
import { recordedWords } from './billed-words.js';
import type { LockEntryError, LockFile } from './lock-file.js';
import type { OutputCache } from './output-cache.js';
import type { PlannedArticle, SyncPlan } from './plan.js';
import type { RecordedOutcome, RunState } from './run-record.js';
import { servedOf } from './served-output.js';
import type { SyncArticleResult, SyncOutcome, SyncResult, SyncTotals } from './result-shape.js';

export interface RunFacts {
  plan: SyncPlan;
  /** The lock file as the run left it. */
  lock: LockFile;
  state: RunState;
  /** Articles still being polled when the run stopped waiting. */
  unfinished: ReadonlySet<string>;
  timeoutMs: number;
  wait: boolean;
  lockFile: string;
  cache: OutputCache;
  requests: number;
  retries: number;
  lockWrites: number;
  durationMs: number;
}

/** What became of an article the run did not record an outcome for: as the plan left it. */
function plannedOutcome(article: PlannedArticle, facts: RunFacts): RecordedOutcome {
  const error = article.entry?.error;
  const withError = (outcome: SyncOutcome, e: LockEntryError | undefined): RecordedOutcome => (e === undefined ? { outcome } : { outcome, error: e });
  switch (article.action) {
    case 'reuse':
      return { outcome: 'reused' };
    case 'failed':
    case 'unknown':
      return withError(article.action, error);
    default: {
      if (!facts.unfinished.has(article.slug)) return { outcome: 'pending' };
      const seconds = Math.round(facts.timeoutMs / 1000);
      const timeout = { code: 'timeout', message: `not finished within the ${seconds} s wait; its id is kept, the next build resumes it` };
      return withError(article.action === 'fetch' ? 'failed' : 'pending', timeout);
    }
  }
}

function articleResults(facts: RunFacts): SyncArticleResult[] {
  return facts.plan.articles.map((article) => {
    const entry = facts.lock.articles[article.slug];
    const { outcome, error } = facts.state.outcome(article.slug) ?? plannedOutcome(article, facts);
    return {
      slug: article.slug,
      keyword: article.keyword,
      action: article.action,
      outcome,
      ...(article.reason === undefined ? {} : { reason: article.reason }),
      entry,
      serve: servedOf(entry),
      ...(error === undefined ? {} : { error }),
    };
  });
}

function totalsOf(articles: readonly SyncArticleResult[], facts: RunFacts): SyncTotals {
  const count = (outcome: SyncOutcome): number => articles.filter((a) => a.outcome === outcome).length;
  const { created } = facts.state;
  return {
    articles: articles.length,
    reused: count('reused'),
    restored: count('restored'),
    fetched: count('fetched'),
    created: created.size,
    waited: facts.plan.articles.filter((a) => a.action === 'wait').length + created.size,
    finished: count('finished'),
    pending: count('pending'),
    failed: count('failed'),
    unknown: count('unknown'),
    orphans: facts.plan.orphans.length,
    requests: facts.requests,
    retries: facts.retries,
    lockWrites: facts.lockWrites,
    estimatedWords: facts.state.createdWords,
    recordedWords: articles.reduce(
      (sum, a) => sum + (a.outcome === 'finished' && created.has(a.slug) && a.entry !== undefined && billedByService(a.entry) ? (recordedWords(a.entry) ?? 0) : 0),
      0,
    ),
  };
}

/** The run's result; `readOutput` serves each article's output after it. */
export function runResult(facts: RunFacts, readOutput: (article: SyncArticleResult | undefined) => ReturnType<SyncResult['readOutput']>): SyncResult {
  const articles = articleResults(facts);
  const bySlug = new Map(articles.map((a) => [a.slug, a]));
  return {
    lockFile: facts.lockFile,
    cacheDir: facts.cache.dir,
    plan: facts.plan,
    articles,
    orphans: facts.plan.orphans.map((o) => o.slug),
    failures: articles.filter((a) => a.outcome === 'failed' || a.outcome === 'unknown' || (a.outcome === 'pending' && facts.wait)),
    totals: totalsOf(articles, facts),
    durationMs: facts.durationMs,
    cache: facts.cache,
    readOutput: (slug) => readOutput(bySlug.get(slug)),
  };
}
