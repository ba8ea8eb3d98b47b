// `astro-article-loader edit <slug>`: copy a finished article's HTML to articles.edits/<slug>.html, to be fixed by hand and served instead. Reads the cache only; no service.
import { ArticleLoaderError } from '../../errors.js';
import { didYouMean, suggestName } from '../../manifest/suggestion.js';
import { startEdit } from '../../sync/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { openProject } from '../project-files.js';

export const EDIT_COMMAND: CommandDefinition = {
  name: 'edit',
  summary: "Copy a finished article's HTML to articles.edits/<slug>.html to fix it by hand; it is served instead while the file exists.",
  flags: { unpolished: { type: 'boolean' } },
  positionals: { names: ['slug'] },
  help: `Usage: astro-article-loader edit <slug> [options]

Writes the article of <slug> (its polished HTML when the service gave one) to
articles.edits/<slug>.html beside the lock file (guides.lock.json → guides.edits/). Change
it by hand: while the file exists, builds and the dev server serve it instead of the
service's article, through the same sanitizer and pipeline (internal links and heading
ids still apply). Delete the file to serve the service's article again.

It reads the cache only: no service, no key, nothing paid. An existing edit is never
written over, by this command or by regenerate; status says when a newer article exists
behind an edit, and verify checks every edit. prune never deletes them.

Options:
${COMMON_FLAG_HELP}
  --unpolished           Copy the service's unpolished HTML even when a polished one exists

Examples:
  npx astro-article-loader edit best-hiking-boots
  npx astro-article-loader edit best-hiking-boots --json

${EXIT_CODE_HELP}`,
  body: runEdit,
};

async function runEdit({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const [slug] = flags.positionals as [string];
  const { manifest, lockFile } = await openProject(io.cwd, flags, output);
  const known = manifest.specs.map((spec) => spec.slug);
  if (!known.includes(slug)) throw new ArticleLoaderError('edit_unknown_slug', `"${slug}" is not a slug of ${shownPath(io.cwd, manifest.file)}${didYouMean(suggestName(slug, known))}.`);
  const { file, articleId, polished } = await startEdit(lockFile, slug, { unpolished: flags.boolean('unpolished'), shown: (path) => shownPath(io.cwd, path) });
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'edit', exitCode: EXIT_CODES.ok, slug, file, articleId, polished });
  } else {
    output.out(output.style.green(`✓ Wrote ${shownPath(io.cwd, file)} (article ${articleId}${polished ? ', polished' : ''}).`));
    output.out('  Change it by hand: it is served instead of the service\'s article while the file exists. Commit it with the site.');
  }
  return EXIT_CODES.ok;
}
