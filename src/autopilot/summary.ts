// What one unattended run did, as the report and the command's --json show it, and the outcome its exit code comes from.
import type { CandidateKind, HeldBy } from './selection.js';

/**
 * `nothing`: nothing to do; `changes`: a pull request's worth; `unmerged`: nothing new, but the branch holds an earlier
 * run's work its base lacks (a pull request should show it); `capReached`: a cap held back due work and nothing new was made.
 */
export type AutopilotOutcome = 'nothing' | 'changes' | 'unmerged' | 'capReached';

/** One finding, as the report lists it. */
export interface ReportFinding {
  severity: 'error' | 'warning';
  code: string;
  message: string;
}

/** A new or refreshed article the run brings. */
export interface ReportArticle {
  slug: string;
  title: string;
  kind: CandidateKind | 'finished';
  /** Words billed, as recorded; absent for an emulator article or one without a record. */
  words?: number;
  findings: ReportFinding[];
}

export interface AutopilotSummary {
  outcome: AutopilotOutcome;
  /** The report's first line, after "Articles: ". */
  headline: string;
  dryRun: boolean;
  /** The manifest sets `review: true`. */
  review: boolean;
  articles: ReportArticle[];
  /** With review: the articles that stay off the site until approved. */
  waiting: { slug: string; title: string; errors: number }[];
  /** Approved by this run (review: true, no error finding). */
  approved: string[];
  /** What goes live when: a date, or on merge. */
  goingLive: { slug: string; date?: string }[];
  stillWriting: { slug: string; articleId: string }[];
  spending: {
    runArticles: number;
    runWords: number;
    runEstimatedWords: number;
    perRun: number;
    perMonth?: number;
    month: string;
    monthArticles: number;
    monthWords: number;
    onEmulator: boolean;
  };
  later: { slug: string; kind: CandidateKind; heldBy: HeldBy }[];
  notYet: number;
  unknown: string[];
  failed: { slug: string; code: string; message: string }[];
}

/** The outcome of a run: changes win; else unmerged work on the branch; else a cap that held back due work; else nothing to do. */
export function outcomeOf(changed: boolean, heldBack: number, unmerged = false): AutopilotOutcome {
  return changed ? 'changes' : unmerged ? 'unmerged' : heldBack > 0 ? 'capReached' : 'nothing';
}

/** The report's first line. */
export function headlineOf(summary: Omit<AutopilotSummary, 'headline'>): string {
  const { spending, later } = summary;
  const monthly = later.some((item) => item.heldBy === 'perMonth');
  const cap = monthly ? `the monthly cap is reached (${spending.monthArticles} of ${spending.perMonth} this month)` : 'the per-run cap is reached';
  const held = later.length === 0 ? '' : `; ${cap}, ${later.length} left for the next run`;
  const prefix = summary.dryRun ? 'dry run, would create' : 'created';
  if (summary.outcome === 'nothing' && !summary.dryRun) return 'nothing to do';
  if (summary.outcome === 'unmerged') {
    const brought = summary.articles.length;
    const what = brought === 0 ? 'changes' : `${brought} article${brought === 1 ? '' : 's'}`;
    return `nothing new in this run; the branch holds ${what} from an earlier run, not merged yet${held}`;
  }
  const parts = [`${prefix} ${spending.runArticles}`, summary.dryRun ? '' : `${summary.articles.length} ready`, summary.stillWriting.length > 0 ? `${summary.stillWriting.length} still being written` : '', summary.approved.length > 0 ? `${summary.approved.length} approved` : ''].filter((p) => p !== '');
  return `${parts.join(', ')}${held}`;
}
