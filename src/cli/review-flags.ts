// Whether the review gate is on for a command: --review / --no-review, else the manifest's top-level `review:`, else off.
import type { FlagSpec, ParsedFlags } from './command-line.js';
import { UsageError } from './usage-error.js';

export const REVIEW_FLAGS = {
  review: { type: 'boolean' },
  'no-review': { type: 'boolean' },
} as const satisfies Record<string, FlagSpec>;

export const REVIEW_FLAG_HELP = `  --review, --no-review  The review gate on or off for this command (default: the
                         manifest's review:, else off)`;

/** The gate for this command: a flag wins over the manifest (which is what the build reads too, unless the loader option says otherwise). */
export function reviewRequired(flags: ParsedFlags, manifest: { review?: boolean } | undefined): boolean {
  if (flags.boolean('review') && flags.boolean('no-review')) throw new UsageError('--review and --no-review contradict each other; give one.');
  if (flags.boolean('review')) return true;
  if (flags.boolean('no-review')) return false;
  return manifest?.review ?? false;
}
