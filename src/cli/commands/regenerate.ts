// `astro-article-loader regenerate <slug…>`: pay for a new article for finished ones on purpose; the current one is served until the new one is finished.
import { currentTime } from '../../lang/clock.js';
import { ArticleLoaderError } from '../../errors.js';
import { didYouMean, suggestName } from '../../manifest/suggestion.js';
import { editFile, editsDirFor, listEdits, readLockState, regenerationPlan } from '../../sync/index.js';
import type { Manifest } from '../../manifest/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { formatCount, plural } from '../output.js';
import { shownPath } from '../manifest-location.js';
import { openProject } from '../project-files.js';
import { SERVICE_FLAG_HELP } from '../service-connection.js';
import { planOptionsOf, withManifestBudget } from '../spending-flags.js';
import { refreshRun } from '../refresh-run.js';
import { UsageError } from '../usage-error.js';
import { executeSync, SYNC_COMMAND, syncSettings } from './sync.js';

const { 'retry-failed': _retryFailed, 'retry-unknown': _retryUnknown, refresh: _refresh, ...SYNC_FLAGS } = SYNC_COMMAND.flags;

export const REGENERATE_COMMAND: CommandDefinition = {
  name: 'regenerate',
  summary: 'Pay for a new article for finished ones, on purpose; each is served until its new one is finished.',
  flags: { ...SYNC_FLAGS, 'dry-run': { type: 'boolean' }, due: { type: 'boolean' } },
  // `<slug…>`, or `--due` instead: checked in the body.
  positionals: { names: [], variadic: true },
  help: `Usage: astro-article-loader regenerate <slug…> [options]
       astro-article-loader regenerate --due [options]

Creates a new article for each named slug whose article is finished: a new, paid article
each (the estimate is printed first). The current article is served until the new one is
finished, then replaced; the entry's attempt is counted up. Budget and frozen mode apply
as for sync. Only the named slugs are touched. A hand edit (see edit) is never written
over: it stays served until you delete it; status then says a newer article is behind it.

A slug that is not in the manifest, or whose article is not finished, exits 1: a failed
article is created again with sync --retry-failed=<slug>, a pending one is waited for by sync.

--due picks the slugs itself: the articles due for a refresh (older than their entry's
refreshAfter; hand-edited ones never are), oldest first, as many as the budget allows.

Options:
${COMMON_FLAG_HELP}
  --dry-run              Say what it would pay for, and stop
  --due                  The articles due for a refresh, instead of named slugs
  --budget <n>, --frozen, --no-frozen, --idempotent-creates, --concurrency <n>,
  --timeout <d>, --poll-interval <d>, --no-wait, --offline: as for sync
${SERVICE_FLAG_HELP}

Examples:
  npx astro-article-loader regenerate best-hiking-boots --dry-run
  npx astro-article-loader regenerate best-hiking-boots trail-running-shoes
  npx astro-article-loader regenerate best-hiking-boots --offline --json
  npx astro-article-loader regenerate --due --budget 5 --dry-run

${EXIT_CODE_HELP}`,
  body: runRegenerate,
};

/** Each slug must be the manifest's (refused with did-you-mean before a request); the rest of the rule is sync's. */
function checkKnown(slugs: readonly string[], manifest: Manifest, cwd: string): void {
  const known = manifest.specs.map((spec) => spec.slug);
  for (const slug of slugs) {
    if (!known.includes(slug)) {
      throw new ArticleLoaderError('regenerate_unknown_slug', `"${slug}" is not a slug of ${shownPath(cwd, manifest.file)}${didYouMean(suggestName(slug, known))}; nothing was created.`);
    }
  }
}

/** The slugs named, or `--due` (not both, and one of them). */
function namedOrDue(flags: CommandContext['flags']): { slugs: string[]; due: boolean } {
  const slugs = [...new Set(flags.positionals)];
  const due = flags.boolean('due');
  if (due && slugs.length > 0) throw new UsageError('give slugs or --due, not both.');
  if (!due && slugs.length === 0) throw new UsageError('missing <slug…>: the arguments are <slug…>, or --due for the articles due for a refresh.');
  return { slugs, due };
}

async function runRegenerate(context: CommandContext): Promise<ExitCode> {
  const { flags, output, io } = context;
  const named = namedOrDue(flags);
  const settings = syncSettings(flags, io.env);
  const { manifest, lockFile } = await openProject(io.cwd, flags, output);
  withManifestBudget(settings.rules, flags, manifest);
  const state = await readLockState(lockFile, { checkOutputs: true });
  checkKnown(named.slugs, manifest, io.cwd);
  const cacheIndex = await state.cache.index();
  if (named.due) settings.rules.refresh = (await refreshRun(manifest.specs, { lockFile, lock: state.lock, cacheIndex, rules: settings.rules, service: settings.service, now: currentTime(io.env), alone: true })).chosen;
  const slugs = named.due ? settings.rules.refresh!.map((age) => age.slug) : named.slugs;
  if (!named.due) settings.rules.regenerate = slugs;
  if (slugs.length === 0) return nothingDue(context);
  const specs = manifest.specs.filter((spec) => slugs.includes(spec.slug));
  const plan = regenerationPlan(specs, slugs, state.lock, cacheIndex, { ...planOptionsOf(settings.rules), service: settings.service });
  const cost = `${plural(plan.creates.length, 'new article')} (≈${formatCount(plan.estimatedWords)} words${settings.offline ? ', written free by the embedded emulator' : ' to bill'})`;
  if (flags.boolean('dry-run')) {
    if (output.json) output.document({ schemaVersion: 1, command: 'regenerate', exitCode: EXIT_CODES.ok, dryRun: true, slugs, creates: plan.creates.length, estimatedWords: plan.estimatedWords });
    else output.out(`regenerate would pay for ${cost}: ${slugs.join(', ')}. Nothing was created (--dry-run).`);
    return EXIT_CODES.ok;
  }
  const edited = (await listEdits(editsDirFor(lockFile))).filter((slug) => slugs.includes(slug));
  const kept = edited.length === 0 ? '' : ` A hand edit stays on the site instead of the new article until you delete it: ${edited.map((slug) => shownPath(io.cwd, editFile(editsDirFor(lockFile), slug))).join(', ')}.`;
  output.err(`regenerate pays for ${cost}: ${slugs.join(', ')}; the current articles are served until the new ones are finished.${kept}`);
  return executeSync(context, { command: 'regenerate', manifest, specs, lockFile, settings });
}

/** `--due` with nothing due (or no budget left): nothing to pay for. */
function nothingDue({ flags, output }: CommandContext): ExitCode {
  if (output.json) output.document({ schemaVersion: 1, command: 'regenerate', exitCode: EXIT_CODES.ok, dryRun: flags.boolean('dry-run'), slugs: [], creates: 0, estimatedWords: 0 });
  else output.out('regenerate --due: no article is due for a refresh within the budget. Nothing was created.');
  return EXIT_CODES.ok;
}
