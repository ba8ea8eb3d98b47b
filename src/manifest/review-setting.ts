// The manifest's top-level `review:` setting: whether each article waits for a person's approval before a build publishes it.
import { describeValue } from './issue-messages.js';

/** The manifest's `review:` as written: true, false, or undefined when absent. A bad value gives the message to report. */
export function reviewSetting(value: unknown, literal: string | undefined): { review?: boolean; problem?: string } {
  if (value === undefined) return {};
  if (typeof value === 'boolean') return { review: value };
  const hint = typeof value === 'string' && /^(yes|no|on|off|true|false)$/i.test(value.trim()) ? `; write it unquoted: \`review: ${/^(yes|on|true)$/i.test(value.trim())}\`` : '';
  return { problem: `must be true (every article waits for \`astro-article-loader approve\` before a build publishes it) or false, not ${describeValue(value, literal)}${hint}` };
}
