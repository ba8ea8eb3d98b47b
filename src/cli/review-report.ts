// The review gate as plan and status show it: which articles wait for a person's approval, which are approved or edited.
import { reviewStates } from '../review/index.js';
import { approvedPrevious, type LockFile } from '../sync/index.js';
import { plural, type Style } from './output.js';

export interface ReviewReport {
  /** Whether the gate is on for this command (--review / --no-review, else the manifest's `review:`). */
  required: boolean;
  /** Articles with an output that nobody approved or hand-edited: with the gate on, a build leaves them out. */
  waiting: string[];
  /** Of `waiting`: a new version (regenerated, refreshed) whose approved earlier article a build keeps on the site meanwhile. */
  keptApproved: string[];
  approved: string[];
  edited: string[];
}

/** The review state of every article with an output (the manifest's, when there is one). */
export function reviewReport(lock: LockFile, edits: readonly string[], slugs: readonly string[] | undefined, required: boolean): ReviewReport {
  const states = reviewStates(lock, new Set(edits), slugs);
  const of = (state: string): string[] => states.filter((article) => article.state === state).map((article) => article.slug);
  const waiting = of('waiting');
  const keptApproved = waiting.filter((slug) => approvedPrevious(lock.articles[slug]) !== undefined);
  return { required, waiting, keptApproved, approved: of('approved'), edited: of('edited') };
}

/** The lines for people: nothing with the gate off. `creates`: articles the plan would create, which will wait too. */
export function reviewLines(report: ReviewReport, style: Style, creates = 0): string[] {
  if (!report.required) return [];
  const later = creates > 0 ? ` The ${plural(creates, 'new article')} will wait for review too.` : '';
  if (report.waiting.length === 0) return [style.green(`Review: nothing waits (${report.approved.length} approved, ${report.edited.length} edited by hand).${later}`)];
  const kept = new Set(report.keptApproved);
  const leftOut = report.waiting.filter((slug) => !kept.has(slug));
  return [
    ...(leftOut.length === 0 ? [] : [style.yellow(`Waiting for review (left out of a build until approved): ${leftOut.join(', ')}.${later}`)]),
    ...(kept.size === 0 ? [] : [style.yellow(`New versions waiting for review (the approved one stays on the site until then): ${report.keptApproved.join(', ')}.`)]),
    `  Read ${report.waiting.length === 1 ? 'it' : 'them'} in \`astro dev\`, then \`astro-article-loader approve <slug…>\`, or \`approve --all-clean\` for every one with no error finding.`,
  ];
}
