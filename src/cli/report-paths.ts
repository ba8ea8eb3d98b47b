// The files a run's report is written to (`--report`, repeatable): each checked writable before anything is spent, then written whole.
import { constants } from 'node:fs';
import { access, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './usage-error.js';

/** Why `file` cannot take the report, or undefined when it can (an existing writable file, or a new one in a writable folder). */
async function unwritable(file: string): Promise<string | undefined> {
  const found = await stat(file).catch(() => undefined);
  if (found?.isDirectory() === true) return 'it is a directory';
  if (found !== undefined) return access(file, constants.W_OK).then(() => undefined, () => 'the file is not writable');
  const dir = path.dirname(file);
  const folder = await stat(dir).catch(() => undefined);
  if (folder === undefined) return `its folder ${dir} does not exist`;
  if (!folder.isDirectory()) return `${dir} is not a folder`;
  return access(dir, constants.W_OK).then(() => undefined, () => `its folder ${dir} is not writable`);
}

/** The `--report` paths resolved against `cwd`, each checked: one that cannot be written refuses the run (exit 2) before anything is spent. */
export async function checkedReportPaths(cwd: string, given: readonly string[]): Promise<string[]> {
  const files = given.map((file) => path.resolve(cwd, file));
  for (const [index, file] of files.entries()) {
    const problem = await unwritable(file);
    if (problem !== undefined) throw new UsageError(`--report ${given[index]}: the report cannot be written there (${problem}). Nothing was created; give a path in a writable folder.`);
  }
  return files;
}

/** Writes the report to every path. */
export async function writeReports(files: readonly string[], markdown: string): Promise<void> {
  for (const file of files) await writeFile(file, markdown);
}
