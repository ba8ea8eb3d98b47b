// What one unattended run creates, in order (scheduled dates within the lookahead, earliest first; then new entries in manifest order; then due refreshes, oldest first), taking what fits the caps and leaving the rest for the next run.
import { countsAsSpend, type ArticleAge, type PlannedArticle, type SyncPlan } from '../sync/index.js';

/** Why an article is on the run's list. */
export type CandidateKind = 'scheduled' | 'new' | 'refresh';

/** One article the run could create. */
export interface Candidate {
  slug: string;
  kind: CandidateKind;
  /** Its publish date (given, or the calendar's), for a scheduled one. */
  date?: Date;
  /** The due refresh, for a refresh. */
  age?: ArticleAge;
  /** Billed by the service: counted against the monthly cap (the embedded emulator bills nothing). */
  paid: boolean;
}

/** The cap that held an article back. */
export type HeldBy = 'perRun' | 'perMonth';

export interface Selection {
  /** What this run creates, in order. */
  chosen: Candidate[];
  /** Due, but past a cap: the next run's. */
  later: (Candidate & { heldBy: HeldBy })[];
  /** Scheduled beyond the lookahead: not due yet. */
  notYet: Candidate[];
}

export interface SelectionInput {
  /** The plan of the whole manifest, without refreshes. */
  plan: SyncPlan;
  /** Each dated article's publish date (its `publishDate`, or the date the calendar gives it). */
  dates: ReadonlyMap<string, Date>;
  /** The due refreshes, oldest first (see `dueArticles`), of articles the plan reuses. */
  due: readonly ArticleAge[];
  /** Scheduled articles dated before this are created now. */
  horizon: Date;
  /** Most articles this run creates: `budget.perRun` or `--budget`. */
  perRun: number;
  /** Paid creates the monthly cap leaves (Infinity without one). */
  monthRoom: number;
  /** The run talks to the embedded emulator (nothing is billed). */
  onEmulator: boolean;
}

/** The run's candidates in the order they are taken; and those scheduled too far ahead. */
function candidates(input: SelectionInput): { ordered: Candidate[]; notYet: Candidate[] } {
  const scheduled: Candidate[] = [];
  const undated: Candidate[] = [];
  const notYet: Candidate[] = [];
  for (const article of input.plan.creates) {
    const date = input.dates.get(article.slug);
    const candidate = candidateOf(article, date === undefined ? 'new' : 'scheduled', input.onEmulator, date);
    if (date === undefined) undated.push(candidate);
    else if (date.getTime() <= input.horizon.getTime()) scheduled.push(candidate);
    else notYet.push(candidate);
  }
  // A stable sort: equal dates keep manifest order.
  scheduled.sort((a, b) => a.date!.getTime() - b.date!.getTime());
  const refreshes = input.due.map((age): Candidate => ({ slug: age.slug, kind: 'refresh', age, paid: !input.onEmulator }));
  return { ordered: [...scheduled, ...undated, ...refreshes], notYet };
}

function candidateOf(article: PlannedArticle, kind: CandidateKind, onEmulator: boolean, date: Date | undefined): Candidate {
  return { slug: article.slug, kind, ...(date === undefined ? {} : { date }), paid: countsAsSpend(article, onEmulator) };
}

/**
 * Takes the candidates in order while they fit: at most `perRun` in all, and at most `monthRoom` paid ones. Unlike
 * `sync`, which refuses a run over its budget, what does not fit is left for the next run.
 */
export function selectCreates(input: SelectionInput): Selection {
  const { ordered, notYet } = candidates(input);
  const chosen: Candidate[] = [];
  const later: Selection['later'] = [];
  let paid = 0;
  for (const candidate of ordered) {
    if (chosen.length >= input.perRun) later.push({ ...candidate, heldBy: 'perRun' });
    else if (candidate.paid && paid >= input.monthRoom) later.push({ ...candidate, heldBy: 'perMonth' });
    else {
      chosen.push(candidate);
      if (candidate.paid) paid += 1;
    }
  }
  return { chosen, later, notYet };
}
