// The run's Markdown report (the pull request's body and the job's summary): its sections in a fixed order, each present even when empty, with no HTML body and no secret, and long lists cut.
import { shownLine } from '../lang/shown-line.js';
import type { AutopilotSummary, ReportArticle } from './summary.js';

/** The report's `##` sections, in order: docs/autopilot.md ("The report") documents each, and a test keeps them equal. */
export const REPORT_SECTIONS = ['New and refreshed', 'Waiting for review', 'Going live', 'Still being written', 'Spending', 'Left for the next run'] as const;

/** Items one list shows before "and N more": 1,000 articles stay far under 1 MiB. */
const LIST_LIMIT = 100;
/** Findings shown per article, errors first. */
const FINDINGS_LIMIT = 5;

/** Text from a service or the manifest as inert Markdown on one line: no tag, link, emphasis or table cell of its own. */
export function markdownText(text: string, max = 200): string {
  // `&` first, so the entities made after are not escaped again; then what Markdown would read as emphasis, code, links or cells.
  return shownLine(text, max).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`);
}

/** A slug or id as inline code: nothing inside is read as Markdown, so only a backtick could end it early. */
export function codeSpan(text: string): string {
  return `\`${shownLine(text, 120).replace(/`/g, "'")}\``;
}

const count = (n: number): string => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`): string => `${count(n)} ${n === 1 ? one : many}`;

/** `items` as list lines, the first LIST_LIMIT of them, then "and N more"; "none" when empty. */
function list<T>(items: readonly T[], line: (item: T) => string[]): string[] {
  if (items.length === 0) return ['none'];
  const shown = items.slice(0, LIST_LIMIT).flatMap(line);
  return items.length > LIST_LIMIT ? [...shown, `- and ${count(items.length - LIST_LIMIT)} more`] : shown;
}

function articleLines(article: ReportArticle): string[] {
  const findings = [...article.findings].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const words = article.words === undefined ? '' : `, ${plural(article.words, 'word')}`;
  const what = article.kind === 'refresh' ? 'refreshed' : 'new';
  const head = `- **${markdownText(article.title)}** (${codeSpan(article.slug)}, ${what}${words}): ${findings.length === 0 ? 'no findings' : plural(findings.length, 'finding')}`;
  const shown = findings.slice(0, FINDINGS_LIMIT).map((f) => `  - ${f.severity === 'error' ? '**error**' : f.severity} ${f.code}: ${markdownText(f.message, 300)}`);
  const more = findings.length > FINDINGS_LIMIT ? [`  - and ${count(findings.length - FINDINGS_LIMIT)} more (\`astro-article-loader check\` lists all)`] : [];
  return [head, ...shown, ...more];
}

function waitingLines(summary: AutopilotSummary): string[] {
  if (!summary.review) return ['none: the manifest has no `review: true`, so merging this pull request publishes every article in it (errors are listed first above).'];
  if (summary.waiting.length === 0) return ['none'];
  return [
    'These stay off the site after the merge until approved. For each: edit it in this branch (`astro-article-loader edit <slug>`), pay for a new one (`astro-article-loader regenerate <slug>`), or approve it as it is (`astro-article-loader approve <slug>`), and push to this branch.',
    '',
    ...list(summary.waiting, (w) => [`- **${markdownText(w.title)}** (${codeSpan(w.slug)}): ${w.errors > 0 ? `${plural(w.errors, 'error finding')}` : 'not approved yet'}`]),
  ];
}

function goingLiveLines(summary: AutopilotSummary): string[] {
  return list(summary.goingLive, (row) => [`- ${codeSpan(row.slug)}: ${row.date === undefined ? 'when this pull request is merged and the site is deployed' : `${row.date.slice(0, 16).replace('T', ' ')} UTC (the first deploy on or after that date)`}`]);
}

function spendingLines(summary: AutopilotSummary): string[] {
  const s = summary.spending;
  const month = s.perMonth === undefined ? 'no monthly cap' : `cap ${count(s.perMonth)}, ${plural(Math.max(0, s.perMonth - s.monthArticles), 'article')} left this month`;
  const estimate = s.runEstimatedWords > 0 ? ` (≈${count(s.runEstimatedWords)} words estimated at creation)` : '';
  return [
    `- This run: ${plural(s.runArticles, 'article')} created (cap ${count(s.perRun)} per run), ${plural(s.runWords, 'word')} billed for those finished${estimate}.`,
    `- This month (${s.month}, UTC): ${plural(s.monthArticles, 'article')} created, ${plural(s.monthWords, 'word')} billed (${month}).`,
    ...(s.onEmulator ? ['- Written by the embedded emulator (--offline): nothing was billed.'] : []),
  ];
}

function laterLines(summary: AutopilotSummary): string[] {
  const held = list(summary.later, (item) => [`- ${codeSpan(item.slug)} (${item.kind}): held back by the ${item.heldBy === 'perMonth' ? 'monthly cap (budget.perMonth)' : 'per-run cap (budget.perRun or --budget)'}`]);
  const lines = summary.later.length === 0 ? ['none held back by a cap'] : held;
  if (summary.notYet > 0) lines.push(`- ${plural(summary.notYet, 'scheduled article')} dated beyond the lookahead: created by a later run, before ${summary.notYet === 1 ? 'its' : 'their'} date.`);
  for (const u of summary.unknown.slice(0, LIST_LIMIT)) lines.push(`- ${codeSpan(u)}: its create had an unknown outcome (it may have been billed); no run creates it again. Find it on the service's queue page and run \`astro-article-loader adopt ${shownLine(u, 120).replace(/`/g, "'")} <articleId>\`, or \`--retry-unknown\` where the service honours idempotency keys.`);
  for (const f of summary.failed.slice(0, LIST_LIMIT)) lines.push(`- ${codeSpan(f.slug)}: failed (${markdownText(f.code, 60)}): ${markdownText(f.message, 200)}`);
  return lines;
}

/** The report as Markdown. */
export function autopilotReport(summary: AutopilotSummary): string {
  const sections: Record<(typeof REPORT_SECTIONS)[number], string[]> = {
    'New and refreshed': list(summary.articles, articleLines),
    'Waiting for review': waitingLines(summary),
    'Going live': goingLiveLines(summary),
    'Still being written': list(summary.stillWriting, (w) => [`- ${codeSpan(w.slug)} (article ${codeSpan(w.articleId)}): the next run keeps polling it, for free`]),
    Spending: spendingLines(summary),
    'Left for the next run': laterLines(summary),
  };
  const body = REPORT_SECTIONS.flatMap((name) => ['', `## ${name}`, '', ...sections[name]]);
  return `# Articles: ${markdownText(summary.headline, 300)}\n${body.join('\n')}\n`;
}
