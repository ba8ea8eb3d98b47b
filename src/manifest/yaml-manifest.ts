// Reads a YAML manifest with the `yaml` Document API, keeping the line of every entry and field.
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import type { DataPath, ManifestDocument, SourcePosition } from './manifest-document.js';
import type { ManifestProblem } from './manifest-error.js';

/** Aliases one manifest may expand: more is an alias bomb ("billion laughs"), not a list of keywords. */
const MAX_ALIAS_COUNT = 1000;

type Node = unknown;

function keyText(key: unknown): string | undefined {
  if (!isScalar(key)) return undefined;
  // With merge keys on, `<<` is read as a symbol.
  return typeof key.value === 'symbol' ? '<<' : String(key.value);
}

/**
 * Finds where values live in a parsed YAML document:
 * for a member, the position of its key; for a list item, the item; the deepest node found when
 * the path goes further than the document does.
 */
function yamlLocator(document: Document.Parsed, lineCounter: LineCounter, text: string) {
  function resolve(node: Node): Node {
    return isAlias(node) ? node.resolve(document) : node;
  }

  function child(node: Node, segment: string | number): { at: Node; value: Node } | undefined {
    node = resolve(node);
    if (isMap(node)) {
      const pair = node.items.find((item) => keyText(item.key) === String(segment));
      if (pair) return { at: pair.key, value: pair.value };
      // A `<<: *anchor` merge key brings members in from elsewhere.
      for (const merge of node.items.filter((item) => keyText(item.key) === '<<')) {
        const sources = isSeq(resolve(merge.value)) ? (resolve(merge.value) as { items: Node[] }).items : [merge.value];
        for (const source of sources) {
          const found = child(source, segment);
          if (found) return found;
        }
      }
      return undefined;
    }
    if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment];
      return item === undefined ? undefined : { at: item, value: item };
    }
    return undefined;
  }

  function start(node: Node): number | undefined {
    return (node as { range?: [number, number, number] } | null)?.range?.[0];
  }

  function find(path: DataPath): { at: Node; value: Node } {
    let found = { at: document.contents as Node, value: document.contents as Node };
    for (const segment of path) {
      const next = child(found.value, segment);
      if (!next) break;
      found = next;
    }
    return found;
  }

  return {
    locate(path: DataPath): SourcePosition | undefined {
      const offset = start(find(path).at);
      return offset === undefined ? undefined : { line: lineCounter.linePos(offset).line };
    },
    literal(path: DataPath): string | undefined {
      const { value } = find(path);
      const node = resolve(value);
      if (!isScalar(node) || !node.range) return undefined;
      return text.slice(node.range[0], node.range[1]);
    },
  };
}

const YAML_HINTS: Partial<Record<string, string>> = {
  TAB_AS_INDENT: 'tabs are not allowed for indentation; indent with spaces',
  MULTIPLE_DOCS: 'the file holds more than one YAML document (a second `---` line); keep one',
  BAD_INDENT: 'the indentation does not line up; items of one list or mapping must start in the same column',
};

/** A YAML syntax error as a problem: line and column, yaml's explanation, and a hint when we have one. */
function yamlErrorProblem(error: YAMLError, file: string, lineCounter: LineCounter, text: string, document?: Document.Parsed): ManifestProblem {
  const position = lineCounter.linePos(error.pos[0]);
  // Without prettyErrors the message is bare; drop yaml's own " at line…" suffix if any.
  const detail = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
  const hint = YAML_HINTS[error.code];
  let message = `invalid YAML: ${hint ?? detail}`;
  if (error.code === 'DUPLICATE_KEY') {
    const key = text.slice(error.pos[0]).split(/[:\n]/, 1)[0]?.trim().replace(/^["']|["']$/g, '');
    message = `${key ? `the key "${key}" appears` : 'a key appears'} twice in the same mapping; keep one`;
    const place = document === undefined ? undefined : keyAt(document, error.pos[0]);
    if (place !== undefined) return { file, line: position.line, column: position.col, ...place, message };
  }
  return { file, line: position.line, column: position.col, section: 'file', message };
}

/** The entry and field of the key written at `offset`, for a duplicate key. */
function keyAt(document: Document.Parsed, offset: number): Pick<ManifestProblem, 'section' | 'index' | 'field'> | undefined {
  let found: Pick<ManifestProblem, 'section' | 'index' | 'field'> | undefined;
  visit(document, {
    Pair(_key, pair, path) {
      const start = (pair.key as { range?: [number, number, number] } | null)?.range?.[0];
      if (start !== offset) return undefined;
      const field = keyText(pair.key);
      found = { ...placeOf([...path, pair], document), ...(field === undefined ? {} : { field }) };
      return visit.BREAK;
    },
  });
  return found;
}

/** Where a node sits in the manifest: under `articles[n]`, under `defaults`, or elsewhere. */
function placeOf(path: readonly unknown[], document: Document.Parsed): Pick<ManifestProblem, 'section' | 'index'> {
  const [, , top, seq, entry] = path;
  const name = isPair(top) ? keyText(top.key) : undefined;
  if (name === 'articles' && isSeq(seq) && entry !== undefined) {
    const index = seq.items.indexOf(entry as never);
    return index === -1 ? { section: 'articles' } : { section: 'articles', index };
  }
  if (name === 'defaults') return { section: 'defaults' };
  return { section: document.contents === undefined ? 'file' : 'top-level' };
}

/**
 * An alias (`*name`, or a `<<: *name` merge) whose anchor (`&name`) is not defined above it: the
 * yaml package would throw while building the data, with neither a line nor a field.
 */
function unresolvedAliases(document: Document.Parsed, lineCounter: LineCounter, file: string): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  visit(document, {
    Alias(_key, node, path) {
      if (node.resolve(document) !== undefined) return;
      const parent = path.at(-1);
      const merge = isPair(parent) && keyText(parent.key) === '<<';
      const field = isPair(parent) ? keyText(parent.key) : undefined;
      problems.push({
        file,
        line: lineCounter.linePos(node.range?.[0] ?? 0).line,
        ...placeOf(path, document),
        ...(field === undefined ? {} : { field }),
        message: `${merge ? 'merges' : 'refers to'} *${node.source}, but no anchor &${node.source} is defined before it; define it (e.g. \`defaults: &${node.source}\`) or remove the ${merge ? 'merge' : 'alias'}`,
      });
    },
  });
  return problems;
}

/** Reads YAML text (BOM already removed) into data and positions. */
export function readYamlManifest(text: string, file: string): ManifestDocument {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const { locate, literal } = yamlLocator(document, lineCounter, text);
  const problems = [...document.errors, ...document.warnings].map((error) => yamlErrorProblem(error, file, lineCounter, text, document));
  // Duplicate keys leave a usable document (the first value wins), so keep checking the rest.
  if (document.errors.some((error) => error.code !== 'DUPLICATE_KEY')) return { format: 'yaml', data: undefined, locate, literal, problems };
  const unresolved = unresolvedAliases(document, lineCounter, file);
  if (unresolved.length > 0) return { format: 'yaml', data: undefined, locate, literal, problems: [...problems, ...unresolved] };
  try {
    return { format: 'yaml', data: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), locate, literal, problems };
  } catch (error) {
    if (!(error instanceof ReferenceError || error instanceof RangeError)) throw error;
    problems.push({
      file,
      section: 'file',
      message:
        error instanceof RangeError
          ? 'the YAML is nested too deeply to read; a manifest needs only a few levels'
          : `the YAML expands too many aliases (*name), over ${MAX_ALIAS_COUNT}; write the entries out or use \`defaults\``,
    });
    return { format: 'yaml', data: undefined, locate, literal, problems };
  }
}
