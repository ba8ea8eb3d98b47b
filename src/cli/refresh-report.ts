// What `plan` says of refreshes: the articles due (older than their refreshAfter), what each would cost, which ones `sync --refresh` pays for this run, and the hand-edited ones it leaves alone.
import { formatAge, planSync, type ArticleAge, type CacheIndex, type LockFile, type WordEstimate } from '../sync/index.js';
import type { Manifest } from '../manifest/index.js';
import { shownPath } from './manifest-location.js';
import { formatCount, plural, type Style } from './output.js';
import type { RefreshRun } from './refresh-run.js';

export interface RefreshReport {
  now: string;
  /** Every due article, oldest first, with its estimate and whether `sync --refresh` pays for it in this run. */
  due: (ReturnType<typeof ageJson> & { estimate: WordEstimate | null; thisRun: boolean })[];
  /** Past their refreshAfter, but served from a hand edit: not refreshed. */
  handEdited: ReturnType<typeof ageJson>[];
  /** Estimated words of the refreshes this run pays for. */
  estimatedWords: number;
}

function ageJson(age: ArticleAge) {
  return { slug: age.slug, age: formatAge(age.ageMs), ageMs: age.ageMs, since: age.since, refreshAfter: age.refreshAfter, dueAt: age.dueAt };
}

/** The report of `refresh`, with each due article's estimate (the same figures as any create). */
export function refreshReport(refresh: RefreshRun, specs: Manifest['specs'], lock: LockFile, cacheIndex: CacheIndex): RefreshReport {
  const slugs = new Set(refresh.due.map((age) => age.slug));
  const plan = planSync(specs.filter((spec) => slugs.has(spec.slug)), lock, cacheIndex, { refresh: refresh.due });
  const estimates = new Map(plan.creates.map((article) => [article.slug, article.estimate ?? null]));
  const chosen = new Set(refresh.chosen.map((age) => age.slug));
  const due = refresh.due.map((age) => ({ ...ageJson(age), estimate: estimates.get(age.slug) ?? null, thisRun: chosen.has(age.slug) }));
  const estimatedWords = due.filter((age) => age.thisRun).reduce((sum, age) => sum + (age.estimate?.words ?? 0), 0);
  return { now: refresh.now.toISOString(), due, handEdited: refresh.handEdited.map(ageJson), estimatedWords };
}

/** The lines for people: nothing when nothing is due and no hand edit is past due. */
export function refreshLines(report: RefreshReport, style: Style, where: { cwd: string; editsDir: string; budget: number }): string[] {
  if (report.due.length === 0 && report.handEdited.length === 0) return [];
  const shown = [...report.due, ...report.handEdited];
  const width = Math.min(40, Math.max(...shown.map((age) => age.slug.length)));
  const lines = [style.bold('Due for a refresh') + ' (older than their refreshAfter; `sync --refresh` pays for them, oldest first; a plain build or sync never does):'];
  for (const age of report.due) {
    const words = age.estimate === null ? '' : style.dim(`  ~${formatCount(age.estimate.words)} words`);
    const later = age.thisRun ? '' : style.yellow('  (past the budget: a later run)');
    lines.push(`  ${style.green('refresh'.padEnd(8))} ${style.bold(age.slug.padEnd(width))}  ${age.age} old, refreshAfter ${age.refreshAfter}${words}${later}`);
  }
  const dir = `${shownPath(where.cwd, where.editsDir)}/`;
  for (const age of report.handEdited) {
    lines.push(`  ${style.dim('skip'.padEnd(8))} ${style.bold(age.slug.padEnd(width))}  hand edit: not refreshed (${age.age} old, refreshAfter ${age.refreshAfter}); delete ${dir}${age.slug}.html to refresh it`);
  }
  const thisRun = report.due.filter((age) => age.thisRun).length;
  if (report.due.length > 0) {
    lines.push(`Refresh cost: ~${formatCount(report.estimatedWords)} words for the ${plural(thisRun, 'article')} \`sync --refresh\` would pay for now (budget ${where.budget} per run); an estimate, not a quote.`);
  }
  return lines;
}
