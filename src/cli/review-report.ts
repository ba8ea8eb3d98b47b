// The review gate as plan and status show it: which articles wait for a person's approval, which are approved or edited.
import { reviewStates } from '../review/index.js';
import type { LockFile } from '../sync/index.js';
import { plural, type Style } from './output.js';

export interface ReviewReport {
  /** Whether the gate is on for this command (--review / --no-review, else the manifest's `review:`). */
  required: boolean;
  /** Articles with an output that nobody approved or hand-edited: with the gate on, a build leaves them out. */
  waiting: string[];
  approved: string[];
  edited: string[];
}

/** The review state of every article with an output (the manifest's, when there is one). */
export function reviewReport(lock: LockFile, edits: readonly string[], slugs: readonly string[] | undefined, required: boolean): ReviewReport {
  const states = reviewStates(lock, new Set(edits), slugs);
  const of = (state: string): string[] => states.filter((article) => article.state === state).map((article) => article.slug);
  return { required, waiting: of('waiting'), approved: of('approved'), edited: of('edited') };
}

/** The lines for people: nothing with the gate off. `creates`: articles the plan would create, which will wait too. */
export function reviewLines(report: ReviewReport, style: Style, creates = 0): string[] {
  if (!report.required) return [];
  const later = creates > 0 ? ` The ${plural(creates, 'new article')} will wait for review too.` : '';
  if (report.waiting.length === 0) return [style.green(`Review: nothing waits (${report.approved.length} approved, ${report.edited.length} edited by hand).${later}`)];
  return [
    style.yellow(`Waiting for review (left out of a build until approved): ${report.waiting.join(', ')}.${later}`),
    `  Read ${report.waiting.length === 1 ? 'it' : 'them'} in \`astro dev\`, then \`astro-article-loader approve <slug…>\`, or \`approve --all-clean\` for every one with no error finding.`,
  ];
}
