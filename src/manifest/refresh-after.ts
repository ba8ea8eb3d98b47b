// `refreshAfter`: how old an article may grow before it is due for a refresh; read here, where the manifest is checked, so a value that is not a duration is refused before anything is paid.
import { DURATION_EXAMPLES, isBareNumber, parseDuration, type Duration } from '../lang/duration.js';

/** The duration a `refreshAfter` value stands for, or why it is not one. */
export function refreshAfterOf(value: unknown): Duration | string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return `must be a duration written as text, e.g. "30d" or "6mo" (${DURATION_EXAMPLES}), not ${value === null ? 'empty' : typeof value}`;
  if (isBareNumber(text)) return `${text} has no unit; write it with one, e.g. "${text.trim()}d" for days or "${text.trim()}mo" for months (${DURATION_EXAMPLES})`;
  const duration = parseDuration(text);
  if (duration !== undefined) return duration;
  return `${JSON.stringify(text)} is not a duration; write a number above zero and a unit: ${DURATION_EXAMPLES} (an article is due for a refresh once it is that old)`;
}
