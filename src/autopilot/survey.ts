// Where an unattended run starts: the lock file and cache read once, the plan of the whole manifest, the dates and due refreshes, and the selection within the caps. Reads only; no request.
import { readFile } from 'node:fs/promises';
import { addDuration, type Duration } from '../lang/duration.js';
import { calendarDates, DEFAULT_LOOKAHEAD, type Manifest } from '../manifest/index.js';
import {
  dueArticles, editsDirFor, listEdits, monthlyCap, monthlyRoom, planSync, readLockState, recordedDates,
  type CacheIndex, type LockState, type MonthlyCap, type SyncPlan
} from '../sync/index.js';
import type { AutopilotRunOptions } from './run-options.js';
import { selectCreates, type Selection } from './selection.js';

/** What the survey reads of the run's options. */
export type SurveyOptions = Pick<AutopilotRunOptions, 'manifest' | 'lockFile' | 'now' | 'perRun' | 'perMonth' | 'onEmulator'>;

export interface Survey {
  state: LockState;
  cacheIndex: CacheIndex;
  /** The lock file's text when the run started (undefined: none), to tell whether an in-place run changed it. */
  lockText: string | undefined;
  plan: SyncPlan;
  /** Each dated article's publish date (given, or the calendar's). */
  dates: Map<string, Date>;
  monthly: MonthlyCap | undefined;
  selection: Selection;
}

/** The lock file's text, or undefined when there is none. */
export async function lockTextOf(lockFile: string): Promise<string | undefined> {
  return readFile(lockFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** The publish date of every dated article: its own `publishDate`, else the date its schedule gives it (recorded or proposed). */
function datesOf(manifest: Manifest, state: LockState, now: Date): Map<string, Date> {
  const dates = new Map<string, Date>();
  for (const spec of manifest.specs) if (spec.publishDate !== undefined) dates.set(spec.slug, spec.publishDate);
  for (const [slug, date] of calendarDates(manifest.specs, recordedDates(state.lock), now)) dates.set(slug, date.date);
  return dates;
}

/**
 * The run's starting point. An `unknown` create is never made again by autopilot (the plan leaves it `unknown`): the
 * report says how to resolve it.
 */
export async function surveyRun(options: SurveyOptions, lookahead: Duration = options.manifest.lookahead ?? DEFAULT_LOOKAHEAD): Promise<Survey> {
  const { manifest, now } = options;
  const lockText = await lockTextOf(options.lockFile);
  const state = await readLockState(options.lockFile, { checkOutputs: true });
  const cacheIndex = await state.cache.index({ verify: true });
  const service = options.onEmulator ? 'emulator' : 'remote';
  const plan = planSync(manifest.specs, state.lock, cacheIndex, { service, idempotentCreates: false });
  const dates = datesOf(manifest, state, now);
  const edited = new Set(await listEdits(editsDirFor(state.lockFile)));
  const kept = new Set(plan.articles.filter((article) => article.action === 'reuse' || article.action === 'fetch').map((article) => article.slug));
  const due = dueArticles(manifest.specs, state.lock, now, edited).filter((age) => kept.has(age.slug));
  const monthly = monthlyCap(options.perMonth, state.lock, options.onEmulator);
  const selection = selectCreates({ plan, dates, due, horizon: addDuration(now, lookahead), perRun: options.perRun, monthRoom: monthlyRoom(monthly), onEmulator: options.onEmulator });
  return { state, cacheIndex, lockText, plan, dates, monthly, selection };
}
