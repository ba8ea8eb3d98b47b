// Words for schema issues: what the value should be, what it is, and how to fix it — in the site owner's terms, not zod's.
import type { z } from 'zod';
import { didYouMean, suggestName } from './suggestion.js';

const MAX_TEXT_SHOWN = 60;

/** A value as a person would name it: `the text "yes"`, `the number 404`, `a list`. */
export function describeValue(value: unknown, literal?: string): string {
  if (typeof value === 'string') {
    const shown = [...value].length > MAX_TEXT_SHOWN ? `${[...value].slice(0, MAX_TEXT_SHOWN - 1).join('')}…` : value;
    return `the text ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number') return `the number ${literal ?? String(value)}`;
  if (typeof value === 'boolean') return String(value);
  if (value === null) return 'nothing (null)';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

/** `"404"` for a number or boolean written bare, as the user wrote it. */
export function quoted(value: unknown, literal?: string): string {
  return JSON.stringify(literal ?? String(value));
}

function expectedType(issue: z.core.$ZodIssueInvalidType, value: unknown, literal?: string): string {
  const got = describeValue(value, literal);
  switch (issue.expected) {
    case 'boolean':
      return `must be true or false, not ${got}${typeof value === 'string' ? '; write true or false without quotes' : ''}`;
    case 'number':
      return typeof value === 'string' && /^\s*[+-]?\d+(\.\d+)?\s*$/.test(value)
        ? `must be a number, not ${got}; remove the quotes`
        : `must be a number, not ${got}`;
    case 'int':
      return `${issue.message}, not ${got}`;
    case 'string':
      return typeof value === 'number' || typeof value === 'boolean'
        ? `must be text, not ${got}; quote it: ${quoted(value, literal)}`
        : `must be text, not ${got}`;
    case 'array':
      return typeof value === 'string' ? `must be a list, not ${got}; write it as a list: [${JSON.stringify(value)}]` : `must be a list, not ${got}`;
    case 'object':
      return `must be a mapping of names to values, not ${got}`;
    default:
      return `${issue.message} (got ${got})`;
  }
}

function sizeOf(value: unknown): string {
  if (typeof value === 'string') return `${[...value].length} characters`;
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}`;
  return describeValue(value);
}

/**
 * The message for one schema issue about `value`. The request schema's own messages
 * ("must be from 1 to 48") are kept and the offending value added.
 */
export function issueMessage(issue: z.core.$ZodIssue, value: unknown, literal?: string): string {
  switch (issue.code) {
    case 'invalid_type':
      return expectedType(issue, value, literal);
    case 'invalid_value': {
      const options = issue.values.map((option) => JSON.stringify(option)).join(', ');
      const suggestion = typeof value === 'string' ? suggestName(value, issue.values.map(String)) : undefined;
      return `must be one of ${options}, not ${describeValue(value, literal)}${didYouMean(suggestion)}`;
    }
    case 'too_small':
    case 'too_big':
      if (typeof value === 'string' && value.trim() === '') return issue.message;
      return `${issue.message} (got ${typeof value === 'number' ? (literal ?? String(value)) : sizeOf(value)})`;
    case 'invalid_format':
      return `${issue.message}, not ${describeValue(value, literal)}`;
    case 'invalid_union':
      return `${issue.message === 'Invalid input' ? 'has the wrong shape' : issue.message} (got ${describeValue(value, literal)})`;
    default:
      return issue.message;
  }
}
