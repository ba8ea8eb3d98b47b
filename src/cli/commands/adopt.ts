// `astro-article-loader adopt <slug> <articleId>`: attach an article found on the service's queue page to its lock entry. Never creates.
import { adoptArticle, isArticleId } from '../../sync/index.js';
import { UsageError } from '../usage-error.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { shownPath } from '../manifest-location.js';
import { openProject } from '../project-files.js';
import { connect, SERVICE_FLAG_HELP, SERVICE_FLAGS } from '../service-connection.js';

export const ADOPT_COMMAND: CommandDefinition = {
  name: 'adopt',
  summary: "Attach an article found on the service's queue page to its entry (an unknown create). Never creates.",
  flags: { ...SERVICE_FLAGS },
  positionals: { names: ['slug', 'articleId'] },
  help: `Usage: astro-article-loader adopt <slug> <articleId> [options]

Records <articleId> as the article of <slug> in the lock file, after one GET that checks
the service has it and that it was written for the entry's keyword (spacing and case
ignored). A finished article's output is cached at once; one still being written is
waited for by the next build. It never creates an article, so it costs nothing.

Use it when a create's outcome was unknown (the service may have billed it, but no id
came back): find the article for that keyword on the service's queue page and adopt it,
instead of paying again with --retry-unknown. It also attaches an id you found by hand
to a failed or pending entry, or to a keyword that has no entry yet. An entry that
already has another finished article is refused.

A slug that is not in the manifest, an id the service does not know, a failed article or
another keyword's article exits 1 and leaves the lock file as it was.

Options:
${COMMON_FLAG_HELP}
${SERVICE_FLAG_HELP}

Examples:
  npx astro-article-loader plan                    # lists the unknown creates
  npx astro-article-loader adopt best-hiking-boots 3f6c1e2a-8d4b-4c1e-9a7f-2b5d6e8f0a1c
  npx astro-article-loader adopt best-hiking-boots 3f6c1e2a-… --json

${EXIT_CODE_HELP}`,
  body: runAdopt,
};

async function runAdopt({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const [slug, articleId] = flags.positionals as [string, string];
  if (!isArticleId(articleId)) {
    const shown = JSON.stringify(articleId.length > 60 ? `${articleId.slice(0, 60)}…` : articleId);
    throw new UsageError(`<articleId> ${shown} is not an article id: the service gives out UUIDs such as 3f6c1e2a-8d4b-4c1e-9a7f-2b5d6e8f0a1c (copy it from the queue page). Nothing was read or sent.`);
  }
  const { manifest, lockFile } = await openProject(io.cwd, flags, output);
  const connection = await connect(io.env, flags, { warn: (message) => output.err(output.errStyle.yellow(message)), command: 'adopt', why: `adopt asks the service about article ${articleId}` });
  let result;
  try {
    result = await adoptArticle({ specs: manifest.specs, manifest: shownPath(io.cwd, manifest.file), lockFile, slug, articleId, client: connection.service });
  } finally {
    await connection.close();
  }
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'adopt', exitCode: EXIT_CODES.ok, ...result, lockFile: result.lockFile });
    return EXIT_CODES.ok;
  }
  const { style } = output;
  const where = shownPath(io.cwd, result.lockFile);
  if (result.unchanged) {
    output.out(style.green(`✓ ${result.slug} already has article ${result.articleId} (${result.status}); nothing changed.`));
    return EXIT_CODES.ok;
  }
  const was = result.before === undefined ? 'had no entry' : `was ${result.before}${result.replaced === undefined ? '' : ` (article ${result.replaced})`}`;
  const next = result.status === 'finished' ? 'its output is cached; the next build serves it' : `it is ${result.status} on the service; the next build waits for it`;
  output.out(style.green(`✓ Adopted article ${result.articleId} for ${style.bold(result.slug)} ("${result.keyword}"), which ${was}: ${next}.`));
  output.out(`  Commit ${where} and the cache directory beside it.`);
  return EXIT_CODES.ok;
}
