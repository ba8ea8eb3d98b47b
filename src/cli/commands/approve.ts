// `astro-article-loader approve <slug…>` / `--all-clean` and `unapprove <slug…>`: record or remove a person's yes to an article's output in the lock file. No requests.
import type { Manifest } from '../../manifest/index.js';
import { approve, readReviewStates, unapprove, type ApprovalChange, type ReviewProject } from '../../review/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { errorFindingsOf } from '../clean-articles.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { plural, type Output } from '../output.js';
import { openLockProject, type ProjectFiles } from '../project-files.js';
import { REVIEW_FLAG_HELP, REVIEW_FLAGS, reviewRequired } from '../review-flags.js';
import { UsageError } from '../usage-error.js';

const REFUSAL = `An unknown slug, or an article with no finished output yet, exits 1 naming it; nothing
is written then (the lock file stays byte for byte as it was).`;

export const APPROVE_COMMAND: CommandDefinition = {
  name: 'approve',
  summary: "Approve articles' current output for the review gate (review: true), so a build publishes them. No requests.",
  flags: { ...REVIEW_FLAGS, 'all-clean': { type: 'boolean' } },
  positionals: { names: [], variadic: true },
  help: `Usage: astro-article-loader approve <slug…> [options]
       astro-article-loader approve --all-clean [options]

Records in the lock file that you approved the output each article serves now (its hash
and the time, on the article's entry). With the review gate on (\`review: true\` in the
manifest, or the loader option), a build publishes only approved or hand-edited articles:
the others wait, listed by the build log, \`plan\` and \`status\`, and shown in \`astro dev\`
marked "needs review". An approval belongs to one output: after \`regenerate\`, or when the
output is fetched again changed, the article waits again. See docs/review.md.

--all-clean approves every waiting article that has no finding of severity error (the
findings \`check\` reports); the others are listed with their error codes.

Under the inter-process lock, written atomically; reads the lock file, the cache and the
edits only: no service, no key, nothing paid.
${REFUSAL}

Options:
${COMMON_FLAG_HELP}
  --all-clean            Every waiting article with no error finding
${REVIEW_FLAG_HELP}

Examples:
  npx astro-article-loader status                  # what waits for review
  npx astro-article-loader approve best-hiking-boots easy-houseplants
  npx astro-article-loader approve --all-clean --json

${EXIT_CODE_HELP}`,
  body: runApprove,
};

export const UNAPPROVE_COMMAND: CommandDefinition = {
  name: 'unapprove',
  summary: 'Take back the approval of articles: with the review gate on, a build leaves them out again. No requests.',
  flags: { ...REVIEW_FLAGS },
  positionals: { names: ['slug'], variadic: true },
  help: `Usage: astro-article-loader unapprove <slug…> [options]

Removes the approval recorded for each article in the lock file: with the review gate on,
the next build leaves it out until it is approved again (a hand edit still counts as
reviewed: delete the edit to take that back too). An article with no approval is left as
it is. Under the inter-process lock, written atomically; no requests.
${REFUSAL}

Options:
${COMMON_FLAG_HELP}
${REVIEW_FLAG_HELP}

Examples:
  npx astro-article-loader unapprove best-hiking-boots
  npx astro-article-loader unapprove best-hiking-boots --json

${EXIT_CODE_HELP}`,
  body: runUnapprove,
};

/** The project as the review room names it: the manifest's slugs when there is a manifest, else the lock file's. */
function reviewProjectOf(project: ProjectFiles<Manifest | undefined>, cwd: string): ReviewProject {
  const { manifest, lockFile } = project;
  return manifest === undefined ? { lockFile } : { lockFile, slugs: manifest.specs.map((spec) => spec.slug), manifestName: shownPath(cwd, manifest.file) };
}

async function runApprove({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const slugs = flags.positionals;
  const allClean = flags.boolean('all-clean');
  if (allClean && slugs.length > 0) throw new UsageError('give slugs or --all-clean, not both.');
  if (!allClean && slugs.length === 0) throw new UsageError('missing <slug…>: name the articles to approve, or give --all-clean for every waiting article with no error finding.');
  const project = await openLockProject(io.cwd, flags);
  const required = reviewRequired(flags, project.manifest);
  const target = reviewProjectOf(project, io.cwd);
  let skipped: { slug: string; errors: string[] }[] = [];
  let chosen = [...slugs];
  if (allClean) {
    const waiting = (await readReviewStates(target)).filter((article) => article.state === 'waiting').map((article) => article.slug);
    const errors = await errorFindingsOf(project, waiting);
    skipped = waiting.filter((slug) => errors.has(slug)).map((slug) => ({ slug, errors: errors.get(slug)! }));
    chosen = waiting.filter((slug) => !errors.has(slug));
  }
  const changes = chosen.length === 0 ? [] : await approve(target, chosen);
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'approve', exitCode: EXIT_CODES.ok, lockFile: project.lockFile, review: required, approved: changes, skipped });
    return EXIT_CODES.ok;
  }
  printChanges(output, changes, { done: 'Approved', already: 'already approved' });
  if (allClean && changes.length === 0 && skipped.length === 0) output.out('Nothing waits for review.');
  for (const { slug, errors } of skipped) output.out(output.style.yellow(`  ! ${slug} not approved: ${plural(errors.length, 'error finding')} (${[...new Set(errors)].join(', ')}); \`astro-article-loader check\` says what to fix, or approve it by name.`));
  printGateNote(output, required, io.cwd, project.manifest);
  return EXIT_CODES.ok;
}

async function runUnapprove({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const project = await openLockProject(io.cwd, flags);
  const required = reviewRequired(flags, project.manifest);
  const changes = await unapprove(reviewProjectOf(project, io.cwd), flags.positionals);
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'unapprove', exitCode: EXIT_CODES.ok, lockFile: project.lockFile, review: required, unapproved: changes });
    return EXIT_CODES.ok;
  }
  printChanges(output, changes, { done: 'Took back the approval of', already: 'not approved' });
  printGateNote(output, required, io.cwd, project.manifest);
  return EXIT_CODES.ok;
}

function printChanges(output: Output, changes: readonly ApprovalChange[], words: { done: string; already: string }): void {
  const changed = changes.filter((change) => change.changed);
  const same = changes.filter((change) => !change.changed);
  if (changed.length > 0) output.out(output.style.green(`✓ ${words.done} ${changed.map((change) => `${change.slug} (${shortHash(change.output)})`).join(', ')}.`));
  if (same.length > 0) output.out(`  ${same.map((change) => change.slug).join(', ')}: ${words.already}; nothing written for ${same.length === 1 ? 'it' : 'them'}.`);
}

function shortHash(output: string | null): string {
  return output === null ? 'no output' : `${output.slice(0, 'sha256:'.length + 12)}…`;
}

/** With the gate off, an approval is kept but changes nothing yet: say so, and how to turn it on. */
function printGateNote(output: Output, required: boolean, cwd: string, manifest: Manifest | undefined): void {
  if (required) return;
  const where = manifest === undefined ? 'the manifest' : shownPath(cwd, manifest.file);
  output.out(output.style.dim(`The review gate is off (no review: true in ${where}): approvals are kept, and take effect once it is on.`));
}
