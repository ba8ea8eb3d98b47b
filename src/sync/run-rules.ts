// The rules of a run that the loader, the CLI and the engine share: the defaults, how often to poll, frozen mode, the budget and the monthly cap, and which errors stop everything.
import { FrozenLockError, OverBudgetError, OverMonthlyCapError } from './errors.js';
import type { LockFile } from './lock-file.js';
import { countsAsSpend, monthOf, spentIn } from './month-spend.js';
import { describeCreateReason } from './create-reason.js';
import type { SyncPlan } from './plan.js';
import type { PollTiming } from './poll-schedule.js';

/** Most new (paid) articles one run may create; more stops the run before any create. */
export const DEFAULT_BUDGET = 25;
/** Longest a run waits for articles being written: 30 minutes. Unfinished ones keep their ids. */
export const DEFAULT_RUN_TIMEOUT_MS = 30 * 60_000;
/** Creates in flight at once. */
export const DEFAULT_CREATE_CONCURRENCY = 4;

/** The embedded emulator is local and free to ask: the first and shortest gap between two polls of an article it writes. */
export const OFFLINE_POLL_MS = 50;

/**
 * How a run polls: every article first `intervalMs` after its create and never more often, when
 * given (the loader's `pollIntervalMs`, the CLI's `--poll-interval`); else briskly against the
 * embedded emulator; else the schedule's defaults for a real service (first poll after 5 s, as the
 * spec's example client, then adapted to each article's pace).
 */
export function pollTiming(service: 'emulator' | 'remote', intervalMs: number | undefined): PollTiming | undefined {
  const ms = intervalMs ?? (service === 'emulator' ? OFFLINE_POLL_MS : undefined);
  return ms === undefined ? undefined : { initialMs: ms, minMs: ms };
}

/** Client error codes that no other article would escape either: stop creating, and fail the run. */
export const FATAL_CODES: ReadonlySet<string> = new Set(['unauthorized', 'insufficient_credits', 'plan_required']);

/**
 * The client's code once it stopped asking a service that keeps timing out or refusing
 * connections. Not fatal: the run serves what the lock file and the cache have.
 */
export const UNREACHABLE_CODE = 'service_unreachable';

/**
 * Whether a build is frozen (never creates, fails listing what would be created) when no option
 * says otherwise: `CI` is set to anything but an empty string, `0` or `false` (any case, surrounding
 * spaces ignored), like `npm ci`. CI services set it to `true` or `1`; `CI=false` turns it off.
 */
export function frozenByDefault(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

export interface SpendingRules {
  frozen: boolean;
  budget: number;
  /** The manifest's `budget.perMonth`, with what the lock file's `spent` records for the month now; absent: no monthly cap. */
  monthly?: MonthlyCap | undefined;
}

/** The monthly cap as one run meets it. */
export interface MonthlyCap {
  perMonth: number;
  /** `2026-11`. */
  month: string;
  /** Articles the lock file records as created in `month`. */
  spent: number;
  /** The run talks to the embedded emulator: it bills nothing, so the cap does not apply. */
  onEmulator: boolean;
}

/** The monthly cap of a manifest's `perMonth` against `lock` at `now` (the machine's clock: what the service bills by). */
export function monthlyCap(perMonth: number | undefined, lock: Pick<LockFile, 'spent'>, onEmulator: boolean, now: Date = new Date()): MonthlyCap | undefined {
  if (perMonth === undefined) return undefined;
  const month = monthOf(now);
  return { perMonth, month, spent: spentIn(lock, month).articles, onEmulator };
}

/** How many paid creates the monthly cap leaves (Infinity without one). */
export function monthlyRoom(monthly: MonthlyCap | undefined): number {
  return monthly === undefined || monthly.onEmulator ? Number.POSITIVE_INFINITY : Math.max(0, monthly.perMonth - monthly.spent);
}

/** More new articles than the budget allows. */
export function overBudget(plan: SyncPlan, budget: number): boolean {
  return plan.creates.length > budget;
}

/**
 * The error that keeps a plan's creates from being made (frozen mode, or more than the budget), or
 * undefined when they may be. The engine throws it before any create; the dev server shows it on
 * each article it blocks; `plan` and `sync` say it before asking the service.
 */
export function blockedCreates(plan: SyncPlan, rules: SpendingRules, lockFile: string): FrozenLockError | OverBudgetError | OverMonthlyCapError | undefined {
  if (plan.creates.length === 0) return undefined;
  const creates = plan.creates.map((c) => ({ slug: c.slug, reason: describeCreateReason(c.reason!) }));
  if (rules.frozen) return new FrozenLockError(lockFile, creates);
  if (overBudget(plan, rules.budget)) return new OverBudgetError(creates, rules.budget, plan.estimatedWords);
  const { monthly } = rules;
  if (monthly !== undefined) {
    const paid = plan.creates.filter((c) => countsAsSpend(c, monthly.onEmulator));
    if (paid.length > monthlyRoom(monthly)) return new OverMonthlyCapError(creates, monthly.perMonth, monthly.spent, monthly.month);
  }
  return undefined;
}
