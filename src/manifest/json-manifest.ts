// Reads a JSON manifest with momoa (a strict JSON parser that keeps the line and column of every node and error), so problems point at their line.
import { parse, tokenize, type AnyNode, type DocumentNode } from '@humanwhocodes/momoa';
import { placeOf, type DataPath, type ManifestDocument, type SourcePosition } from './manifest-document.js';
import type { ManifestProblem } from './manifest-error.js';

// The last token of the file is "unexpected" when the file stops before the JSON is complete.
function endsEarly(error: Error & { offset?: number }, text: string): boolean {
  if (error.constructor.name === 'UnexpectedEOF' || error.offset === undefined) return true;
  try {
    return tokenize(text).at(-1)?.loc.start.offset === error.offset;
  } catch {
    return false;
  }
}

// momoa says where and which token; we say it in the file's own characters, with the usual slips explained.
function syntaxProblem(error: Error & { line?: number; column?: number; offset?: number }, text: string, file: string): ManifestProblem {
  if (endsEarly(error, text)) {
    const lines = text.trimEnd().split('\n');
    return {
      file,
      line: lines.length,
      column: (lines.at(-1)?.length ?? 0) + 1,
      section: 'file',
      message: 'invalid JSON: the file ends early; a closing } or ] or " is missing',
    };
  }
  const offset = error.offset ?? 0;
  const at = text[offset] ?? '';
  const previous = text.slice(0, offset).trimEnd().at(-1);
  let message = `invalid JSON: unexpected ${JSON.stringify(at)}`;
  if ((at === '}' || at === ']') && previous === ',') message += ' — JSON allows no comma after the last item; remove it';
  else if (at === '/' || at === '#') message += ' — JSON has no comments; remove it, or write the manifest as .yaml, which allows # comments';
  else if (at === "'") message += ' — JSON strings and keys need double quotes';
  else if (/[A-Za-z_]/.test(at) && previous !== undefined && '{,'.includes(previous)) message += ' — keys need double quotes';
  else if (/["{[\dtfn-]/.test(at)) message += ' — a comma is missing before it';
  return { file, ...(error.line ? { line: error.line } : {}), ...(error.column ? { column: error.column } : {}), section: 'file', message };
}

type Found = { at: AnyNode; value: AnyNode };

function child(node: AnyNode, segment: string | number): Found | undefined {
  if (node.type === 'Object') {
    // JSON.parse keeps the last of equal keys, so point at the last.
    const member = node.members.findLast((candidate) => candidate.name.type === 'String' && candidate.name.value === String(segment));
    return member ? { at: member.name, value: member.value } : undefined;
  }
  if (node.type === 'Array' && typeof segment === 'number') {
    const element = node.elements[segment];
    return element ? { at: element.value, value: element.value } : undefined;
  }
  return undefined;
}

/** Keys written twice in one object, each named with its entry, field and both lines. */
function duplicateKeys(root: DocumentNode, file: string): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const visit = (node: AnyNode, path: DataPath) => {
    if (node.type === 'Object') {
      const seen = new Map<string, number>();
      for (const member of node.members) {
        const name = member.name.type === 'String' ? member.name.value : '';
        const line = member.name.loc.start.line;
        const first = seen.get(name);
        if (first === undefined) seen.set(name, line);
        else {
          const lines = first === line ? ' on the same line' : `, on lines ${first} and ${line}`;
          problems.push({ file, line, ...placeOf([...path, name]), message: `the key ${JSON.stringify(name)} appears twice in the same object${lines}; keep one` });
        }
        visit(member.value, [...path, name]);
      }
    } else if (node.type === 'Array') node.elements.forEach((element, index) => visit(element.value, [...path, index]));
  };
  visit(root.body, []);
  return problems;
}

/** Reads JSON text (BOM already removed) into data and positions. */
export function readJsonManifest(text: string, file: string): ManifestDocument {
  let ast: DocumentNode | undefined;
  const find = (path: DataPath): Found | undefined => {
    if (!ast) return undefined;
    let found: Found = { at: ast.body, value: ast.body };
    for (const segment of path) {
      const next = child(found.value, segment);
      if (!next) break;
      found = next;
    }
    return found;
  };
  const locate = (path: DataPath): SourcePosition | undefined => {
    const found = find(path);
    return found ? { line: found.at.loc.start.line } : undefined;
  };
  const literal = (path: DataPath): string | undefined => {
    const value = find(path)?.value;
    return value && ['Number', 'Boolean', 'Null'].includes(value.type) ? text.slice(value.loc.start.offset, value.loc.end.offset) : undefined;
  };

  try {
    ast = parse(text, { mode: 'json' });
  } catch (error) {
    if (error instanceof RangeError) {
      return { format: 'json', data: undefined, locate, literal, problems: [{ file, section: 'file', message: 'the JSON is nested too deeply to read; a manifest needs only a few levels' }] };
    }
    if (!(error instanceof Error)) throw error;
    return { format: 'json', data: undefined, locate, literal, problems: [syntaxProblem(error, text, file)] };
  }
  let data: unknown;
  try {
    // The same values JSON.parse gives everywhere else; it also refuses raw control characters in strings.
    data = JSON.parse(text);
  } catch (error) {
    return { format: 'json', data: undefined, locate, literal, problems: [{ file, section: 'file', message: `invalid JSON: ${(error as Error).message}` }] };
  }
  return { format: 'json', data, locate, literal, problems: duplicateKeys(ast, file) };
}
