// Hand edits as plan and status show them: which slugs are served from articles.edits/, and which have a newer article behind the edit.
import { editIsBehind, editsDirFor, listEdits, readEdit, type LockFile } from '../sync/index.js';
import { shownPath } from './manifest-location.js';
import type { Style } from './output.js';

export interface EditedReport {
  editsDir: string;
  /** Slugs served from a hand edit. */
  edited: string[];
  /** Of those, the ones with a newer article than the edit started from. */
  behind: string[];
}

export async function editedReport(lockFile: string, lock: LockFile): Promise<EditedReport> {
  const editsDir = editsDirFor(lockFile);
  const edited = await listEdits(editsDir);
  const behind: string[] = [];
  for (const slug of edited) {
    const edit = await readEdit(editsDir, slug);
    if (edit !== undefined && editIsBehind(edit, lock)) behind.push(slug);
  }
  return { editsDir, edited, behind };
}

/** The lines for people: nothing when there is no edit. */
export function editedLines(report: EditedReport, style: Style, cwd: string): string[] {
  if (report.edited.length === 0) return [];
  const dir = `${shownPath(cwd, report.editsDir)}/`;
  const lines = [`Edited by hand (served from ${dir} instead of the service's article): ${report.edited.join(', ')}`];
  for (const slug of report.behind) {
    lines.push(style.yellow(`  ${slug}: a newer article exists behind the edit; delete ${dir}${slug}.html to serve it, or carry your changes over`));
  }
  return lines;
}
