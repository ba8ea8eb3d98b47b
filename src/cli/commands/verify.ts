// `astro-article-loader verify`: CI's check that the lock file and the committed cache agree.
import { access } from 'node:fs/promises';
import { ArticleLoaderError } from '../../errors.js';
import { verifyArticles, type VerifyProblem } from '../../sync/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import type { CommandContext, CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { locateLockOnly, shownPath } from '../manifest-location.js';
import { plural } from '../output.js';

export const VERIFY_COMMAND: CommandDefinition = {
  name: 'verify',
  summary: 'Check that the lock file and the cache are consistent (for CI). No requests.',
  flags: {},
  help: `Usage: astro-article-loader verify [options]

Checks the lock file and the cache beside it: the lock file parses and can be trusted
(no key given twice, every entry's hash matches its recorded request, every output was
fetched for the entry's own article), no create is left with an unknown outcome, every
finished article has its cached output, every cache file's content matches its hash, and
no file is left over from an interrupted write. Exits 4 with a list of problems otherwise.
Cache files nothing refers to are listed as warnings (prune removes them), and so is an
approval whose output the lock file no longer serves (the article waits for review, so
nothing is published unseen; approve it again, or unapprove it).
It reads the manifest's location only (to find the lock file), never the service.

Options:
${COMMON_FLAG_HELP}

Examples:
  npx astro-article-loader verify
  npx astro-article-loader verify --lock-file site/articles.lock.json --json

In CI, together with plan (which exits 3 when a build would create articles):
  npx astro-article-loader verify && npx astro-article-loader plan

${EXIT_CODE_HELP}`,
  body: runVerify,
};

type Problem = Omit<VerifyProblem, 'code'> & { code: string };

async function runVerify({ flags, output, io }: CommandContext): Promise<ExitCode> {
  const { lockFile, cacheDir } = await locateLockOnly(io.cwd, flags);
  const lockExists = await access(lockFile).then(
    () => true,
    () => false,
  );
  let problems: Problem[];
  let entries = 0;
  try {
    ({ problems, entries } = await verifyArticles(lockFile));
  } catch (error) {
    // A lock file that does not parse, or cannot be read at all (a directory at its path), is the first thing verify exists to catch.
    if (error instanceof ArticleLoaderError && (error.code === 'corrupt_lock' || error.code === 'unsupported_lock_version' || error.code === 'lock_read_failed')) {
      problems = [{ code: error.code, severity: 'error', file: lockFile, message: error.message }];
    } else throw error;
  }
  const failed = problems.some((problem) => problem.severity === 'error');
  const exitCode: ExitCode = failed ? EXIT_CODES.verifyFailed : EXIT_CODES.ok;
  if (output.json) {
    output.document({ schemaVersion: 1, command: 'verify', exitCode, ok: !failed, lockFile, cacheDir, lockFileExists: lockExists, entries, problems });
    return exitCode;
  }
  const { style } = output;
  if (!lockExists) {
    output.out(`No lock file at ${shownPath(io.cwd, lockFile)}: nothing to verify (a build creates it).`);
    return exitCode;
  }
  if (problems.length === 0) {
    output.out(style.green(`✓ ${shownPath(io.cwd, lockFile)} and ${shownPath(io.cwd, cacheDir)}/ are consistent (${plural(entries, 'article')}).`));
    return exitCode;
  }
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const heading = errors > 0 ? style.red(`✗ ${plural(errors, 'problem')}`) : style.green('✓ consistent');
  const warnings = problems.length - errors;
  output.out(`${heading}${warnings > 0 ? style.yellow(`, ${plural(warnings, 'warning')}`) : ''} in ${shownPath(io.cwd, lockFile)} and ${shownPath(io.cwd, cacheDir)}/:`);
  for (const problem of problems) {
    const mark = problem.severity === 'error' ? style.red('-') : style.yellow('!');
    const line = problem.line === undefined ? '' : ` (line ${problem.line})`;
    output.out(`  ${mark} ${style.bold(problem.code)}${problem.slug === undefined ? '' : ` ${problem.slug}`}${line}: ${problem.message}`);
  }
  return exitCode;
}
