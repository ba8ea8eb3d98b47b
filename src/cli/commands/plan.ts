// `astro-article-loader plan`: what a build would do and cost, per article and why, without a single request.
import { currentTime } from '../../lang/clock.js';
import { blockedCreates, editsDirFor, overBudget, planSync, readLockState, type LockState, type SyncPlan, unknownCreatesLines } from '../../sync/index.js';
import type { Manifest } from '../../manifest/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { formatCount, plural, type Output } from '../output.js';
import { type CostEstimate, costLine, costOf, planArticleLines, planCountsLine, plannedArticleJson } from '../plan-report.js';
import { calendarLines, calendarReport } from '../calendar-report.js';
import { languagePlanLines, languagePlans } from '../language-plan.js';
import { editedLines, editedReport } from '../edited-report.js';
import { openProject } from '../project-files.js';
import { refreshLines, refreshReport } from '../refresh-report.js';
import { refreshRun } from '../refresh-run.js';
import { REVIEW_FLAG_HELP, REVIEW_FLAGS, reviewRequired } from '../review-flags.js';
import { reviewLines, reviewReport } from '../review-report.js';
import { planOptionsOf, spendingRulesOf, SYNC_RULE_FLAGS, SYNC_RULE_HELP, SYNC_RULE_SELECTIONS, syncRules, withManifestBudget, type SyncRules } from '../spending-flags.js';

export const PLAN_COMMAND: CommandDefinition = {
  name: 'plan',
  summary: 'Show what a build would create, reuse or wait for, why, and what it would cost. No requests.',
  flags: { ...SYNC_RULE_FLAGS, ...REVIEW_FLAGS, all: { type: 'boolean' }, 'internal-links': { type: 'boolean' } },
  selectionFlags: SYNC_RULE_SELECTIONS,
  help: `Usage: astro-article-loader plan [options]

Compares the manifest with the lock file and the cache and shows, per article, what a
build would do: create (new entry, or which request fields changed, as a diff), reuse,
wait, fetch, restore, failed, unknown, or orphan. Then the totals and an estimated cost
in words. It makes no requests to the service at all.

Entries with refreshAfter: the articles due for a refresh (older than it, on the clock or
ARTICLE_LOADER_NOW), each with its estimate, and which of them \`sync --refresh\` would pay
for in one run within the budget; a hand-edited article is never refreshed ("hand edit:
not refreshed"). A build never refreshes, so they do not change the exit code.

Options:
${COMMON_FLAG_HELP}
${SYNC_RULE_HELP}
  --all                  Also list the articles that are reused
  --internal-links       Count the internal-link credits too (1 per new article),
                         when the site uses the service's internal links
${REVIEW_FLAG_HELP}

With a schedule (or publish dates), it shows the calendar: what goes live when, and which
scheduled dates are only proposed (plan writes nothing; sync or a build records them).

With the review gate on, it also lists the articles waiting for review: a build leaves
them out until \`approve\` (see docs/review.md).

Examples:
  npx astro-article-loader plan
  npx astro-article-loader plan --manifest content/articles.csv --all
  npx astro-article-loader plan --json | jq '.estimate.words'
  npx astro-article-loader plan || echo "this build would create articles"

The word figures are estimates from the request (length, sections, items, images at 50
or 200 words by image model), not a quote: the service bills the words it writes.

${EXIT_CODE_HELP}
  (plan exits 0 when nothing would be created and 3 when something would.)`,
  body: runPlan,
};

async function runPlan({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const rules = syncRules(flags, io.env);
  const { manifest, lockFile } = await openProject(io.cwd, flags, output);
  withManifestBudget(rules, flags, manifest);
  const state = await readLockState(lockFile, { checkOutputs: true });
  const cacheIndex = await state.cache.index({ verify: true }); // each output hashed: a damaged one is a fetch, as in sync
  const plan = planSync(manifest.specs, state.lock, cacheIndex, planOptionsOf(rules));
  const now = currentTime(io.env);
  const refresh = refreshReport(await refreshRun(manifest.specs, { lockFile: state.lockFile, lock: state.lock, cacheIndex, rules, service: 'remote', now }), manifest.specs, state.lock, cacheIndex);
  const cost = costOf(plan, flags.boolean('internal-links'));
  const creates = plan.creates.length;
  const blocked = blockedCreates(plan, spendingRulesOf(rules, state.lock, 'remote'), state.lockFile);
  const exitCode: ExitCode = creates > 0 ? EXIT_CODES.wouldCreate : EXIT_CODES.ok;
  const { edits, review, calendar, languages } = await planReports(manifest, state, plan, { reviewOn: reviewRequired(flags, manifest), now });

  if (output.json) {
    output.document({
      schemaVersion: 1,
      command: 'plan',
      exitCode,
      manifest: manifest.file,
      lockFile: state.lockFile,
      cacheDir: state.cacheDir,
      budget: rules.budget,
      frozen: rules.frozen,
      wouldCreate: creates > 0,
      overBudget: overBudget(plan, rules.budget),
      ...planJson(plan, cost),
      edited: edits.edited,
      editedBehind: edits.behind,
      review,
      calendar,
      refresh,
      // Only with `languages`: a one-language plan's document is as it was.
      ...(languages.length === 0 ? {} : { languages }),
    });
    return exitCode;
  }

  const { style } = output;
  output.out(`${style.bold('Plan')} for ${shownPath(io.cwd, manifest.file)} (${plural(manifest.specs.length, 'article')}; lock file ${shownPath(io.cwd, state.lockFile)})`);
  const lines = planArticleLines(plan, style, { all: flags.boolean('all') });
  if (lines.length > 0) output.out();
  for (const line of lines) output.out(line);
  if (!flags.boolean('all') && plan.counts.reuse > 0 && lines.length > 0) output.out(style.dim(`  … and ${formatCount(plan.counts.reuse)} up to date (--all lists them)`));
  for (const section of [
    editedLines(edits, style, io.cwd),
    calendarLines(calendar, style),
    refreshLines(refresh, style, { cwd: io.cwd, editsDir: editsDirFor(state.lockFile), budget: rules.budget }),
    reviewLines(review, style, creates),
    unknownCreatesLines(plan.articles.filter((article) => article.action === 'unknown')).map((line) => style.yellow(line)),
    languagePlanLines(languages, style),
  ]) printSection(output, section);
  output.out();
  output.out(`${style.bold('Plan:')} ${planCountsLine(plan)}.`);
  if (creates > 0) output.out(`${style.bold('Estimated cost:')} ${costLine(cost)}; an estimate, not a quote.`);
  else output.out(`${style.bold('Estimated cost:')} nothing: no article would be created.`);
  printNextStep(output, plan, rules, blocked?.code);
  return exitCode;
}

/** The plan itself in the --json document: counts, estimate, articles and orphans. */
function planJson(plan: SyncPlan, cost: CostEstimate) {
  return { counts: plan.counts, estimate: cost, articles: plan.articles.map(plannedArticleJson), orphans: plan.orphans.map(plannedArticleJson) };
}

/** What plan reports beside the articles: hand edits, the review gate, the calendar and the languages. */
async function planReports(manifest: Manifest, state: LockState, plan: SyncPlan, { reviewOn, now }: { reviewOn: boolean; now: Date }) {
  const edits = await editedReport(state.lockFile, state.lock);
  const review = reviewReport(state.lock, edits.edited, manifest.specs.map((spec) => spec.slug), reviewOn);
  return { edits, review, calendar: calendarReport(manifest, state.lock, now), languages: languagePlans(manifest.specs, plan) };
}

/** A block of lines after a blank one; nothing when there are none. */
function printSection(output: Output, lines: readonly string[]): void {
  if (lines.length > 0) output.out();
  for (const line of lines) output.out(line);
}

/** The closing line: what stops a sync, else what it would do. */
function printNextStep(output: Output, plan: SyncPlan, rules: SyncRules, blocked: string | undefined): void {
  const { style } = output;
  const creates = plan.creates.length;
  const unresolved = plan.counts.failed + plan.counts.unknown;
  if (blocked === 'frozen') {
    const why = rules.frozenSource === 'CI' ? 'CI is set' : '--frozen';
    output.out(style.yellow(`Frozen mode is on (${why}): sync would stop without creating anything. Run sync where spending is allowed (--no-frozen), then commit the lock file and articles.cache/.`));
  } else if (blocked === 'over_budget') {
    output.out(style.yellow(`Over budget: ${creates} new articles, budget ${rules.budget} per run; sync would stop before creating anything. If this is intended: --budget ${creates}.`));
  } else if (blocked === 'over_monthly_cap') {
    output.out(style.yellow(`Over the monthly cap: ${creates} new articles, and the manifest's budget.perMonth (${rules.perMonth}) leaves fewer this month; sync would stop before creating anything. \`autopilot\` takes what fits.`));
  } else if (creates > 0) {
    output.out(`Run ${style.bold('astro-article-loader sync')} to create ${creates === 1 ? 'it' : `these ${creates}`} (budget ${rules.budget} per run).`);
  } else if (plan.counts.wait + plan.counts.fetch > 0) {
    output.out(`Nothing to create; ${style.bold('astro-article-loader sync')} would wait for or fetch the rest (free).`);
  } else if (unresolved > 0) {
    output.out(style.yellow(`Nothing to create, but ${plural(unresolved, 'article')} failed or had an unknown create (see above): a build leaves ${unresolved === 1 ? 'it' : 'them'} off the site (or fails, with onFailure: "fail") until you resolve ${unresolved === 1 ? 'it' : 'them'}.`));
  } else {
    output.out(style.green('Up to date: a build makes no requests.'));
  }
}
