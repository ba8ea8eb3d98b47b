// Reads a YAML manifest with the `yaml` Document API, keeping the line of every entry and field.
import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type YAMLError } from 'yaml';
import type { DataPath, ManifestDocument, SourcePosition } from './manifest-document.js';
import type { ManifestProblem } from './manifest-error.js';

/** Aliases one manifest may expand: more is an alias bomb ("billion laughs"), not a list of keywords. */
const MAX_ALIAS_COUNT = 1000;

type Node = unknown;

function keyText(key: unknown): string | undefined {
  return isScalar(key) ? String(key.value) : undefined;
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
function yamlErrorProblem(error: YAMLError, file: string, lineCounter: LineCounter, text: string): ManifestProblem {
  const position = lineCounter.linePos(error.pos[0]);
  // Without prettyErrors the message is bare; drop yaml's own " at line…" suffix if any.
  const detail = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
  const hint = YAML_HINTS[error.code];
  let message = `invalid YAML: ${hint ?? detail}`;
  if (error.code === 'DUPLICATE_KEY') {
    const key = text.slice(error.pos[0]).split(/[:\n]/, 1)[0]?.trim().replace(/^["']|["']$/g, '');
    message = `${key ? `the key "${key}" appears` : 'a key appears'} twice in the same mapping; keep one`;
  }
  return { file, line: position.line, column: position.col, section: 'file', message };
}

/** Reads YAML text (BOM already removed) into data and positions. */
export function readYamlManifest(text: string, file: string): ManifestDocument {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const { locate, literal } = yamlLocator(document, lineCounter, text);
  const problems = [...document.errors, ...document.warnings].map((error) => yamlErrorProblem(error, file, lineCounter, text));
  // Duplicate keys leave a usable document (the first value wins), so keep checking the rest.
  if (document.errors.some((error) => error.code !== 'DUPLICATE_KEY')) return { format: 'yaml', data: undefined, locate, literal, problems };
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
