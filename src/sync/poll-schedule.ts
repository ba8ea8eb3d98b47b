// When to poll each article next: one schedule for all pending articles, adapted to each article's progress rate and to the slowest one.

export interface PollTiming {
  /** Shortest gap between two polls of one article. Default 1,000 ms. */
  minMs?: number;
  /** Longest gap between two polls of one article. Default 30,000 ms. */
  maxMs?: number;
  /** Gap before the first poll of a new article (nothing is known of its speed yet). Default 5,000 ms, as the spec's example client. */
  initialMs?: number;
  /**
   * Articles due within this window of the earliest one are polled in the same wake-up, so the
   * loop wakes once for a group instead of once per article. Default `min(250, minMs / 4)`.
   */
  batchWindowMs?: number;
}

export interface ResolvedPollTiming {
  minMs: number;
  maxMs: number;
  initialMs: number;
  batchWindowMs: number;
}

/** The gaps a run uses unless told otherwise: the first poll after 5 s (as the spec's example client), then 1 to 30 s. The option docs and the CLI's help say these. */
export const DEFAULT_POLL_TIMING = { initialMs: 5_000, minMs: 1_000, maxMs: 30_000 } as const;

export function resolvePollTiming(timing: PollTiming = {}): ResolvedPollTiming {
  const minMs = Math.max(0, timing.minMs ?? DEFAULT_POLL_TIMING.minMs);
  const maxMs = Math.max(minMs, timing.maxMs ?? DEFAULT_POLL_TIMING.maxMs);
  const initialMs = Math.min(maxMs, Math.max(minMs, timing.initialMs ?? DEFAULT_POLL_TIMING.initialMs));
  const batchWindowMs = Math.max(0, timing.batchWindowMs ?? Math.min(250, minMs / 4));
  return { minMs, maxMs, initialMs, batchWindowMs };
}

/**
 * Aim a little after the predicted finish: a poll that arrives just before the end costs a second
 * poll `minMs` later, while arriving late costs only a few percent of the remaining time.
 */
const ETA_OVERSHOOT = 1.05;
const ETA_MARGIN_MS = 15;

/**
 * Longest gap, as a multiple of the article's age (time since its create), while its pace is
 * unknown or measured from a single progress level. One level cannot tell queue time from writing
 * time, and a small level (0.01 when writing starts) multiplies any error by (1 − p) / p, so the
 * prediction may be far too late. Capped at 1× age, a poll never waits longer than the article has
 * already taken: at worst it is seen finished one own-duration late, never maxMs late.
 */
const UNCERTAIN_AGE_FACTOR = 1;
/**
 * Longest gap, as a multiple of the age, once two progress levels give a pace free of queue time.
 * The pace is then reliable for evenly spread steps; the cap only bounds the damage of uneven ones.
 */
const MEASURED_AGE_FACTOR = 3;

/** A progress level and when it was reached, on the service's clock when known. */
interface Sample {
  at: number;
  progress: number;
}

interface Tracked {
  due: number;
  /** Taken by `takeDue` and not answered yet: no due time to move. */
  inFlight: boolean;
  /** Its own next poll (ETA and age cap), used while it sets the horizon or is not bound to it. */
  ownDue: number;
  /**
   * Bounds of a poll that may wait for the horizon: it is due at the horizon, clamped to them.
   * Undefined when the article's own schedule applies (a first poll set by the caller, no prediction yet).
   */
  window: { lower: number; upper: number } | undefined;
  /** Its predicted finish, local clock, when its pace is known. */
  predicted: number | undefined;
  /** When the article was created, local clock. */
  startedAt: number;
  /** When it was last seen without progress (queued), local clock: writing started after that. */
  idleSeenAt: number | undefined;
  /** The first level above 0 (the service's clock): rates measured from it leave queue time out. */
  first: Sample | undefined;
  last: Sample | undefined;
  lastInterval: number;
}

/**
 * A pure schedule (no timers, no I/O): the loop asks `nextDue()`, sleeps once until then, takes
 * `takeDue(now)` and reports each answer with `record` / `recordError`.
 *
 * Progress usually moves in steps (a section at a time), so the time we *saw* a level says little;
 * the record's `updatedAt` says when the level was *reached*. Rates come from those service
 * timestamps. The clocks are taken as synchronised (NTP) unless a record proves the service's
 * clock is ahead of ours (`updatedAt` later than our now); then that lead is subtracted.
 *
 * The horizon is the latest predicted finish of any tracked article: a build ends no earlier than
 * that, so polling another article before it buys nothing. A new article is first polled at the
 * horizon (within initialMs … maxMs of its add); an article predicted to finish earlier is polled
 * at the horizon, but never before its own predicted finish nor more than maxMs later. Only the
 * article that sets the horizon keeps its own ETA and age cap: its polls correct the horizon, and
 * every article waiting for it moves with it (earlier or later).
 */
export class PollSchedule<Id> {
  readonly timing: ResolvedPollTiming;
  readonly #tracked = new Map<Id, Tracked>();
  #clockOffset: number | undefined;
  /** The article with the latest predicted finish (it keeps its own ETA and age cap), and that finish. */
  #horizon: { id: Id; at: number } | undefined;

  constructor(timing: PollTiming = {}) {
    this.timing = resolvePollTiming(timing);
  }

  /** The latest predicted finish of any tracked article (local clock), if any is predicted. */
  get horizon(): number | undefined {
    return this.#horizon?.at;
  }

  get size(): number {
    return this.#tracked.size;
  }

  has(id: Id): boolean {
    return this.#tracked.has(id);
  }

  /**
   * Starts tracking an article. `startedAt` is when it was created, local clock (default `now`):
   * its age, which bounds every gap, counts from there, so pass the recorded creation time of an
   * article created by an earlier run. `firstPollAt` overrides the first poll (e.g. now, for such an article).
   */
  add(id: Id, now: number, options: { startedAt?: number; firstPollAt?: number } = {}): void {
    const startedAt = options.startedAt ?? now;
    const ownDue = options.firstPollAt ?? now + this.timing.initialMs;
    // Nothing of a new article is known; the run cannot end before the horizon anyway, so its first
    // poll waits for it (within initialMs … maxMs) rather than spending polls on an unfinished article.
    const window = options.firstPollAt === undefined ? { lower: now + this.timing.initialMs, upper: now + this.timing.maxMs } : undefined;
    const tracked: Tracked = {
      due: ownDue,
      inFlight: false,
      ownDue,
      window,
      predicted: undefined,
      startedAt,
      idleSeenAt: undefined,
      first: undefined,
      last: undefined,
      lastInterval: this.timing.initialMs,
    };
    this.#tracked.delete(id);
    this.#tracked.set(id, tracked);
    if (this.#horizon?.id === id) {
      this.#horizon = this.#latest();
      this.#rebalance();
    } else this.#place(id, tracked);
  }

  remove(id: Id): void {
    this.#tracked.delete(id);
    if (this.#horizon?.id === id) this.#rebalance();
  }

  /** The earliest due time, or undefined when nothing is tracked. */
  nextDue(): number | undefined {
    let earliest: number | undefined;
    for (const tracked of this.#tracked.values()) if (earliest === undefined || tracked.due < earliest) earliest = tracked.due;
    return earliest;
  }

  /**
   * The articles to poll at `now`: every one due by `now + batchWindowMs`. They stay tracked
   * (with no due time) until `record`, `recordError` or `remove`.
   */
  takeDue(now: number): Id[] {
    const limit = now + this.timing.batchWindowMs;
    const due: Id[] = [];
    for (const [id, tracked] of this.#tracked) {
      if (tracked.due <= limit) {
        due.push(id);
        tracked.due = Number.POSITIVE_INFINITY;
        tracked.inFlight = true;
      }
    }
    return due;
  }

  /**
   * Records an answer seen at local time `now`: `progress` in [0, 1] and the record's `updatedAt`
   * (service clock, ms). The next poll is at the predicted finish, clamped to [minMs, maxMs] and
   * to a multiple of the article's age (see UNCERTAIN_AGE_FACTOR); with no progress yet, the gap grows.
   *
   * The pace comes from the first level above 0 to the latest one, so time spent queued never
   * counts as writing time. With a single level, it is measured from when the article was last
   * seen without progress (or from its create): an upper bound of the writing time so far, hence
   * the tighter cap.
   */
  record(id: Id, now: number, progress: number, updatedAt?: number): number {
    const tracked = this.#tracked.get(id);
    if (tracked === undefined) return Number.POSITIVE_INFINITY;
    const { minMs, maxMs } = this.timing;
    const serviceClock = updatedAt !== undefined && Number.isFinite(updatedAt) && updatedAt > 0;
    if (serviceClock) this.#clockOffset = Math.min(this.#clockOffset ?? 0, now - updatedAt);
    const offset = serviceClock ? (this.#clockOffset ?? 0) : 0;
    const reachedAt = serviceClock ? updatedAt : now;
    if (!(progress > 0)) tracked.idleSeenAt = now;
    else if (progress > (tracked.last?.progress ?? 0)) {
      tracked.last = { at: reachedAt, progress };
      tracked.first ??= tracked.last;
    }
    const age = Math.max(0, now - tracked.startedAt);
    const { first, last } = tracked;
    let rate = 0;
    let ageFactor = UNCERTAIN_AGE_FACTOR;
    if (first !== undefined && last !== undefined && last.progress > first.progress && last.at > first.at) {
      rate = (last.progress - first.progress) / (last.at - first.at);
      ageFactor = MEASURED_AGE_FACTOR;
    } else if (last !== undefined) {
      const writingSince = Math.max(tracked.startedAt, tracked.idleSeenAt ?? Number.NEGATIVE_INFINITY) - offset;
      if (last.at > writingSince) rate = last.progress / (last.at - writingSince);
    }
    let interval: number;
    let predicted: number | undefined;
    if (rate > 0 && last !== undefined) {
      predicted = last.at + (1 - Math.min(last.progress, 1)) / rate + offset;
      interval = (predicted - now) * ETA_OVERSHOOT + ETA_MARGIN_MS;
    } else {
      interval = tracked.lastInterval * 1.5;
    }
    const eta = clamp(interval, minMs, maxMs);
    interval = clamp(Math.min(interval, ageFactor * age), minMs, maxMs);
    tracked.lastInterval = interval;
    tracked.inFlight = false;
    tracked.ownDue = now + interval;
    tracked.predicted = predicted;
    // An article predicted to finish before the horizon is polled no earlier than its own finish
    // (no age cap: the horizon article's polls correct the horizon) and as late as the horizon.
    tracked.window = predicted === undefined ? undefined : { lower: now + eta, upper: now + maxMs };
    const moved = this.#updateHorizon(id, predicted);
    if (moved) this.#rebalance();
    else this.#place(id, tracked);
    return tracked.due;
  }

  /** Updates the horizon after `id`'s prediction changed; returns whether the horizon moved or changed hands. */
  #updateHorizon(id: Id, predicted: number | undefined): boolean {
    const current = this.#horizon;
    if (current === undefined || current.id === id) {
      // The horizon article's own prediction moved (or it has none any more): the latest may be another's.
      const latest = this.#latest();
      const changed = latest?.id !== current?.id || latest?.at !== current?.at;
      this.#horizon = latest;
      return changed;
    }
    if (predicted !== undefined && predicted > current.at) {
      this.#horizon = { id, at: predicted };
      return true;
    }
    return false;
  }

  #latest(): { id: Id; at: number } | undefined {
    let latest: { id: Id; at: number } | undefined;
    for (const [id, tracked] of this.#tracked) {
      if (tracked.predicted !== undefined && (latest === undefined || tracked.predicted > latest.at)) latest = { id, at: tracked.predicted };
    }
    return latest;
  }

  /** Sets one waiting article's due time from its own schedule and the horizon. */
  #place(id: Id, tracked: Tracked): void {
    if (tracked.inFlight) return;
    const horizon = this.#horizon;
    if (tracked.window === undefined || horizon === undefined || horizon.id === id) tracked.due = tracked.ownDue;
    else tracked.due = clamp(horizon.at, tracked.window.lower, tracked.window.upper);
  }

  /** Re-derives every waiting article's due time after the horizon moved (earlier or later). */
  #rebalance(): void {
    if (this.#horizon !== undefined && !this.#tracked.has(this.#horizon.id)) this.#horizon = this.#latest();
    for (const [id, tracked] of this.#tracked) this.#place(id, tracked);
  }

  /** Records a failed poll: back off (double the gap, up to maxMs). */
  recordError(id: Id, now: number): number {
    const tracked = this.#tracked.get(id);
    if (tracked === undefined) return Number.POSITIVE_INFINITY;
    const interval = clamp(Math.max(tracked.lastInterval, this.timing.minMs) * 2, this.timing.minMs, this.timing.maxMs);
    tracked.lastInterval = interval;
    tracked.inFlight = false;
    // A backoff is its own: it never waits for (or is pulled in by) the horizon.
    tracked.ownDue = now + interval;
    tracked.window = undefined;
    tracked.due = tracked.ownDue;
    return tracked.due;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
