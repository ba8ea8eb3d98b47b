// The manifest's top-level `budget:` (the caps: `perRun`, `perMonth`) and `lookahead:` (how far ahead the unattended run creates scheduled articles), read and checked here so a wrong cap is refused before anything is paid.
import { DURATION_EXAMPLES, isBareNumber, parseDuration, type Duration } from '../lang/duration.js';
import { isPlainObject } from '../lang/plain-object.js';
import { describeValue } from './issue-messages.js';

/** The caps as the manifest gives them; either may be absent. */
export interface ManifestBudget {
  /** Most new (paid) articles one run may create: the default budget of `sync`, a build and `autopilot`. */
  perRun?: number;
  /** Most articles created in one calendar month (UTC), counted in the lock file's `spent`. */
  perMonth?: number;
}

/** The default lookahead: a scheduled article is created once its date is within a week. */
export const DEFAULT_LOOKAHEAD: Duration = { amount: 7, unit: 'd' };

type Report = (field: string, message: string, path: string[]) => void;

const CAP_NAMES = ['perRun', 'perMonth'] as const;

/** One cap: a positive whole number, or why not. */
function capOf(value: unknown, literal: string | undefined): number | string {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  const text = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? `; write it unquoted: ${value.trim()}` : '';
  return `must be a positive whole number of articles (e.g. 5), not ${describeValue(value, literal)}${text}`;
}

/** `budget:` as written, checked: each cap a positive whole number, `perRun` not above `perMonth`, no other key. */
export function budgetSetting(value: unknown, literal: (path: string[]) => string | undefined, report: Report): ManifestBudget | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    report('budget', `must be a mapping of caps, e.g. \`budget: { perRun: 5, perMonth: 20 }\`, not ${describeValue(value, literal(['budget']))}`, ['budget']);
    return undefined;
  }
  const budget: ManifestBudget = {};
  for (const key of Object.keys(value)) {
    if ((CAP_NAMES as readonly string[]).includes(key)) continue;
    report(`budget.${key}`, 'is not a cap; `budget` has only `perRun` (articles one run may create) and `perMonth` (articles one calendar month may create); remove it', ['budget', key]);
  }
  for (const name of CAP_NAMES) {
    if (value[name] === undefined) continue;
    const cap = capOf(value[name], literal(['budget', name]));
    if (typeof cap === 'string') report(`budget.${name}`, cap, ['budget', name]);
    else budget[name] = cap;
  }
  if (budget.perRun !== undefined && budget.perMonth !== undefined && budget.perRun > budget.perMonth) {
    report('budget.perRun', `is ${budget.perRun}, above perMonth (${budget.perMonth}): one run could never create that many; lower perRun to ${budget.perMonth} or less, or raise perMonth`, ['budget', 'perRun']);
    return undefined;
  }
  return budget;
}

/** `lookahead:` as written: a duration (`14d`), or undefined after reporting why not. */
export function lookaheadSetting(value: unknown, report: Report): Duration | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'number' ? String(value) : value;
  let problem: string;
  if (typeof text !== 'string') problem = `must be a duration written as text, e.g. "14d" (${DURATION_EXAMPLES}), not ${value === null ? 'empty' : typeof value}`;
  else if (isBareNumber(text)) problem = `${text} has no unit; write it with one, e.g. "${text.trim()}d" for days (${DURATION_EXAMPLES})`;
  else {
    const duration = parseDuration(text);
    if (duration !== undefined) return duration;
    problem = `${JSON.stringify(text)} is not a duration; write a number above zero and a unit: ${DURATION_EXAMPLES} (a scheduled article is created once its date is that close)`;
  }
  report('lookahead', problem, ['lookahead']);
  return undefined;
}
