// `astro-article-loader verify`: CI's check that the lock file and the committed cache agree.
import { access } from 'node:fs/promises';
import { ArticleLoaderError } from '../../errors.js';
import { readLockState } from '../../sync/index.js';
import { COMMON_FLAG_HELP } from '../command-line.js';
import { runCommand, type CommandDefinition } from '../command-runner.js';
import { EXIT_CODE_HELP, EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { locateLock, locateManifest, shownPath } from '../manifest-location.js';
import { plural, type CommandIo } from '../output.js';

export const VERIFY_COMMAND: CommandDefinition = {
  name: 'verify',
  summary: 'Check that the lock file and the cache are consistent (for CI). No requests.',
  flags: {},
  help: `Usage: astro-article-loader verify [options]

Checks the lock file and the cache beside it: the lock file parses, every finished
article has its cached output, every cache file's content matches its hash, and no file
is left over from an interrupted write. Exits 4 with a list of problems otherwise.
It reads the manifest's location only (to find the lock file), never the service.

Options:
${COMMON_FLAG_HELP}

Examples:
  npx astro-article-loader verify
  npx astro-article-loader verify --lock-file site/articles.lock.json --json

In CI, together with plan (which exits 3 when a build would create articles):
  npx astro-article-loader verify && npx astro-article-loader plan

${EXIT_CODE_HELP}`,
};

interface Problem {
  code: string;
  message: string;
  file?: string;
  slug?: string;
}

export function runVerifyCommand(args: readonly string[], io?: CommandIo): Promise<ExitCode> {
  return runCommand(
    VERIFY_COMMAND,
    args,
    async ({ flags, output, io }) => {
      const lockFlag = flags.string('lock-file');
      const manifest = lockFlag === undefined ? await locateManifest(io.cwd, flags.string('manifest'), { required: false }) : undefined;
      const { lockFile, cacheDir } = locateLock(io.cwd, lockFlag, manifest);
      const lockExists = await access(lockFile).then(
        () => true,
        () => false,
      );
      let problems: Problem[];
      let entries = 0;
      try {
        // verifyArticles, keeping the lock it read for the entry count.
        const state = await readLockState(lockFile);
        entries = Object.keys(state.lock.articles).length;
        problems = await state.cache.verify(state.lock);
      } catch (error) {
        // A lock file that does not parse is the first thing verify exists to catch.
        if (error instanceof ArticleLoaderError && (error.code === 'corrupt_lock' || error.code === 'unsupported_lock_version')) {
          problems = [{ code: error.code, file: lockFile, message: error.message }];
        } else throw error;
      }
      const exitCode: ExitCode = problems.length > 0 ? EXIT_CODES.verifyFailed : EXIT_CODES.ok;
      if (output.json) {
        output.document({ schemaVersion: 1, command: 'verify', exitCode, ok: problems.length === 0, lockFile, cacheDir, lockFileExists: lockExists, entries, problems });
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
      output.out(style.red(`✗ ${plural(problems.length, 'problem')} in ${shownPath(io.cwd, lockFile)} and ${shownPath(io.cwd, cacheDir)}/:`));
      for (const problem of problems) output.out(`  ${style.red('-')} ${style.bold(problem.code)}${problem.slug === undefined ? '' : ` ${problem.slug}`}: ${problem.message}`);
      return exitCode;
    },
    io,
  );
}
