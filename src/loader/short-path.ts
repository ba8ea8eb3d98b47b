// Paths in log lines and the toolbar: relative to the project root when inside it (its own module: the integration needs it without the loader's log lines).
import { relative } from 'node:path';

/** A path as short as it can be while still pointing at the file: relative to the project root when inside it. */
export function shortPath(file: string, root: string): string {
  const rel = relative(root, file);
  return rel !== '' && !rel.startsWith('..') ? rel : file;
}
