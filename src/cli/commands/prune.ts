// `astro-article-loader prune`: remove lock entries no longer in the manifest and cache files nothing refers to.
import { pruneArticles, readLockState } from '../../sync/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { plural } from '../output.js';
import { openProject } from '../project-files.js';

export const PRUNE_COMMAND: CommandDefinition = {
  name: 'prune',
  summary: 'Remove orphaned lock entries and unreferenced cache files (--dry-run shows them).',
  flags: { 'dry-run': { type: 'boolean' } },
  help: `Usage: astro-article-loader prune [--dry-run] [options]

Removes from the lock file the articles whose slug is no longer in the manifest, then the
cache files no lock entry refers to (and leftovers of interrupted writes). It holds the
inter-process lock, so a running build never loses an entry, and writes atomically.
Orphans are never removed by a build: this is the only command that forgets them. An entry
whose slug changed while its request did not (a slug: written, languages: given) is no orphan:
it is kept under its new slug.

Options:
${COMMON_FLAG_HELP}
  --dry-run              Show what would be removed; change nothing

Examples:
  npx astro-article-loader prune --dry-run
  npx astro-article-loader prune && git add articles.lock.json articles.cache

A removed article stays in your account on the service; only this site forgets it. Putting
its keyword back in the manifest later creates (and pays for) a new article, unless you
restore the lock entry from version control.

${EXIT_CODE_HELP}`,
  body: runPrune,
};

async function runPrune({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const dryRun = flags.boolean('dry-run');
  // An invalid manifest throws here: pruning against a half-read manifest would forget paid articles.
  const { manifest, lockFile } = await openProject(io.cwd, flags, output);
  const before = (await readLockState(lockFile)).lock;
  const result = await pruneArticles({ specs: manifest.specs, lockFile, dryRun });
  const orphans = result.orphans.map((slug) => {
    const entry = before.articles[slug];
    return { slug, keyword: entry?.keyword ?? null, status: entry?.status ?? null, articleId: entry?.articleId ?? null };
  });

  if (output.json) {
    output.document({ schemaVersion: 1, command: 'prune', exitCode: EXIT_CODES.ok, dryRun, lockFile, orphans, moved: result.moved, files: result.files });
    return EXIT_CODES.ok;
  }
  const { style } = output;
  for (const { from, to } of result.moved) output.out(`${dryRun ? 'Would keep' : 'Kept'} ${style.bold(from)} as ${style.bold(to)}: the same request under its new slug (no create).`);
  if (orphans.length === 0 && result.files.length === 0) {
    output.out(style.green(`Nothing to prune: every entry of ${shownPath(io.cwd, lockFile)} is in the manifest and every cache file is in use.`));
    return EXIT_CODES.ok;
  }
  const verb = dryRun ? 'Would remove' : 'Removed';
  if (orphans.length > 0) {
    output.out(`${style.bold(verb)} ${plural(orphans.length, 'lock entry', 'lock entries')} not in the manifest:`);
    for (const orphan of orphans) {
      output.out(`  ${style.red('-')} ${style.bold(orphan.slug)} ${style.dim(`(${orphan.status ?? '?'}${orphan.articleId === null ? '' : `, article ${orphan.articleId}`})`)}`);
    }
  }
  if (result.files.length > 0) {
    output.out(`${style.bold(verb)} ${plural(result.files.length, 'unreferenced cache file')}:`);
    for (const file of result.files) output.out(`  ${style.red('-')} ${shownPath(io.cwd, file)}`);
  }
  output.out(dryRun ? style.dim('Dry run: nothing was changed. Run without --dry-run to remove them.') : `Commit ${shownPath(io.cwd, lockFile)} and the cache directory to keep the change.`);
  return EXIT_CODES.ok;
}
