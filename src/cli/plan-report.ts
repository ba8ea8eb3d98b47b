// What a plan says, for people (one line per article, why, a diff of the request, totals and cost) and for scripts (JSON).
import { describeCreateReason, type PlannedArticle, type SyncPlan, type WordEstimate } from '../sync/index.js';
import { formatCount, plural, type Style } from './output.js';

/** Per action: the word shown in the first column and its colour. */
const ACTION_LABEL: Record<PlannedArticle['action'], { label: string; tone: 'green' | 'yellow' | 'red' | 'cyan' | 'dim' }> = {
  create: { label: 'create', tone: 'green' },
  wait: { label: 'wait', tone: 'cyan' },
  fetch: { label: 'fetch', tone: 'cyan' },
  restore: { label: 'restore', tone: 'cyan' },
  failed: { label: 'failed', tone: 'red' },
  unknown: { label: 'unknown', tone: 'red' },
  orphan: { label: 'orphan', tone: 'yellow' },
  reuse: { label: 'reuse', tone: 'dim' },
};

/** Why, for the text report: a changed request says how many fields, the diff lines below it show them. */
function whyShown(article: PlannedArticle): string {
  const reason = article.reason;
  if (reason?.kind === 'changed' && reason.changes.length > 0) {
    return `request changed since the lock file: ${reason.changes.length === 1 ? '1 field' : `${reason.changes.length} fields`}`;
  }
  return article.movedFrom === undefined ? whyOf(article) : `${whyOf(article)}; the lock entry of ${article.movedFrom}, the same request (its slug changed): taken over, no create`;
}

/** Why the plan does what it does for one article, in one line. */
export function whyOf(article: PlannedArticle): string {
  const entry = article.entry;
  switch (article.action) {
    case 'reuse':
      return 'finished and cached';
    case 'fetch':
      return 'finished, but its output is not in the cache: one GET fetches it (free, never a create)';
    case 'wait':
      return `article ${entry?.articleId ?? '?'} is being written; sync waits for it`;
    case 'create':
      return article.reason === undefined ? 'new entry' : describeCreateReason(article.reason);
    case 'restore':
      return `the request is back to that of the earlier finished article: served again, no create${entry?.status === 'pending' ? `; article ${entry.articleId ?? '?'}, still being written for the other request (paid), is dropped` : ''}`;
    case 'failed':
      return `failed${entry?.error === undefined ? '' : ` (${entry.error.code}: ${entry.error.message})`}; re-created only with --retry-failed (a new, paid article)`;
    case 'unknown':
      return `a create may have been billed but no id came back${entry?.error === undefined ? '' : ` (${entry.error.code})`}: adopt the id from the service's queue page, or pay again with --retry-unknown (see below)`;
    case 'orphan':
      return 'in the lock file but not in the manifest: kept; `prune` removes it';
  }
}

/** A changed request as diff lines: `- articleLength: "short"`, `+ articleLength: "long"`. */
export function requestDiffLines(article: PlannedArticle): { sign: '-' | '+'; text: string }[] {
  if (article.reason?.kind !== 'changed') return [];
  const lines: { sign: '-' | '+'; text: string }[] = [];
  for (const change of article.reason.changes) {
    if (change.from !== undefined) lines.push({ sign: '-', text: `${change.path}: ${JSON.stringify(change.from)}` });
    if (change.to !== undefined) lines.push({ sign: '+', text: `${change.path}: ${JSON.stringify(change.to)}` });
  }
  return lines;
}

export interface CostEstimate extends WordEstimate {
  /** Internal-link credits (1 per new article) when `--internal-links` says the site uses them; null otherwise. */
  internalLinkCredits: number | null;
}

export function costOf(plan: SyncPlan, internalLinks: boolean): CostEstimate {
  const total: CostEstimate = { words: 0, textWords: 0, imageWords: 0, images: 0, unpricedImages: 0, internalLinkCredits: internalLinks ? plan.creates.length : null };
  for (const article of plan.creates) {
    const estimate = article.estimate;
    if (estimate === undefined) continue;
    total.words += estimate.words;
    total.textWords += estimate.textWords;
    total.imageWords += estimate.imageWords;
    total.images += estimate.images;
    total.unpricedImages += estimate.unpricedImages;
  }
  return total;
}

/** The fields every article of a `--json` document starts with, in this order. */
export function articleHeadJson(article: Pick<PlannedArticle, 'slug' | 'keyword' | 'action'>): { slug: string; keyword: string; action: PlannedArticle['action'] } {
  return { slug: article.slug, keyword: article.keyword, action: article.action };
}

/** One article of the plan as JSON (the `articles[]` / `orphans[]` items of `plan --json`). */
export function plannedArticleJson(article: PlannedArticle): Record<string, unknown> {
  return {
    ...articleHeadJson(article),
    hash: article.hash,
    articleId: article.entry?.articleId ?? null,
    lockStatus: article.entry?.status ?? null,
    reason: article.reason ?? null,
    why: whyOf(article),
    estimate: article.estimate ?? null,
    error: article.entry?.error ?? null,
    movedFrom: article.movedFrom ?? null,
  };
}

/** "2 to create, 1 to wait for, 9 to reuse, 1 orphan" */
export function planCountsLine(plan: SyncPlan): string {
  const c = plan.counts;
  const parts = [
    `${formatCount(c.create)} to create`,
    c.wait > 0 ? `${formatCount(c.wait)} to wait for` : '',
    c.fetch > 0 ? `${formatCount(c.fetch)} to fetch` : '',
    c.restore > 0 ? `${formatCount(c.restore)} to restore` : '',
    `${formatCount(c.reuse)} to reuse`,
    c.failed > 0 ? `${formatCount(c.failed)} failed` : '',
    c.unknown > 0 ? `${formatCount(c.unknown)} unknown` : '',
    c.orphan > 0 ? plural(c.orphan, 'orphan') : '',
  ];
  return parts.filter((p) => p !== '').join(', ');
}

/** "~5,400 words (4,800 text + 12 images: 600 words)" */
export function costLine(cost: CostEstimate): string {
  const images = cost.images > 0 ? ` + ${plural(cost.images, 'image')}: ${formatCount(cost.imageWords)} words` : '';
  const unpriced = cost.unpricedImages > 0 ? `; ${plural(cost.unpricedImages, 'image')} of a model the spec gives no price for, not counted` : '';
  const credits = cost.internalLinkCredits === null ? '' : `, plus ${plural(cost.internalLinkCredits, 'internal-link credit')}`;
  return `~${formatCount(cost.words)} words (${formatCount(cost.textWords)} text${images}${unpriced})${credits}`;
}

/** The per-article lines of a plan: every article that needs something, reused ones only with `all`. */
export function planArticleLines(plan: SyncPlan, style: Style, options: { all: boolean }): string[] {
  const shown = [...plan.articles.filter((a) => options.all || a.action !== 'reuse' || a.movedFrom !== undefined), ...plan.orphans];
  if (shown.length === 0) return [];
  const slugWidth = Math.min(40, Math.max(...shown.map((a) => a.slug.length)));
  const lines: string[] = [];
  for (const article of shown) {
    const { label, tone } = ACTION_LABEL[article.action];
    const words = article.estimate === undefined ? '' : style.dim(`  ~${formatCount(article.estimate.words)} words`);
    lines.push(`  ${style[tone](label.padEnd(8))} ${style.bold(article.slug.padEnd(slugWidth))}  ${whyShown(article)}${words}`);
    const indent = ' '.repeat(11 + slugWidth + 2);
    for (const line of requestDiffLines(article)) {
      lines.push(`${indent}${line.sign === '-' ? style.red(`- ${line.text}`) : style.green(`+ ${line.text}`)}`);
    }
  }
  return lines;
}
