// Reads a YAML manifest with the `yaml` Document API, keeping the line of every entry and field.
import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import { placeOf, type DataPath, type ManifestDocument, type SourcePosition } from './manifest-document.js';
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

/** What a file nested deeper than the parser can follow is told (the parser's own words are "Maximum call stack size exceeded"). */
const TOO_DEEP = 'the YAML is nested too deeply to read; a manifest needs only a few levels';

const YAML_HINTS: Partial<Record<string, string>> = {
  TAB_AS_INDENT: 'YAML does not allow tabs for indentation; use spaces (the tab is at the start of this line)',
  MULTIPLE_DOCS: 'the file holds more than one YAML document (a second `---` line); keep one',
  BAD_INDENT: 'the indentation does not line up; items of one list or mapping must start in the same column',
};

/** A YAML syntax error as a problem: line and column, yaml's explanation, and a hint when we have one. */
function yamlErrorProblem(error: YAMLError, file: string, lineCounter: LineCounter, document: Document.Parsed): ManifestProblem {
  const position = lineCounter.linePos(error.pos[0]);
  if (error.code === 'DUPLICATE_KEY') {
    const duplicate = duplicateKeyProblem(document, lineCounter, error.pos[0]);
    if (duplicate !== undefined) return { file, line: position.line, column: position.col, ...duplicate };
  }
  // Without prettyErrors the message is bare; drop yaml's own " at line…" suffix if any.
  const detail = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '').trim();
  return { file, line: position.line, column: position.col, section: 'file', message: `invalid YAML: ${YAML_HINTS[error.code] ?? detail}` };
}

type NodeRange = { range?: [number, number, number] | null } | null | undefined;

function startOf(node: unknown): number | undefined {
  return (node as NodeRange)?.range?.[0];
}

/** The data path (`['articles', 2, 'polishSettings']`) of `target`, given the ancestors `visit` passes. */
function dataPathOf(ancestors: readonly unknown[], target: unknown): (string | number)[] {
  const chain = [...ancestors, target];
  const path: (string | number)[] = [];
  chain.forEach((node, index) => {
    if (isSeq(node) && index + 1 < chain.length) path.push(node.items.indexOf(chain[index + 1] as never));
    else if (isPair(node)) path.push(keyText(node.key) ?? '?');
  });
  return path;
}

/**
 * Where a node at `path` is, with the keyword of its entry read from the document itself: a
 * document with a broken alias cannot be turned into data to read it from.
 */
function placeIn(document: Document.Parsed, path: DataPath): Pick<ManifestProblem, 'section' | 'index' | 'field' | 'keyword'> {
  const place = placeOf(path);
  if (place.section !== 'articles' || place.index === undefined) return place;
  const entry: unknown = document.getIn(['articles', place.index], true);
  const node: unknown = isMap(entry) ? (entry.get('keyword', true) ?? entry.get('targetKeyword', true)) : entry;
  return isScalar(node) && typeof node.value === 'string' ? { ...place, keyword: node.value.trim() } : place;
}

/** The entry, field and both lines of a key written twice in one mapping, the second at `offset`. */
function duplicateKeyProblem(document: Document.Parsed, lineCounter: LineCounter, offset: number): Omit<ManifestProblem, 'file'> | undefined {
  let found: Omit<ManifestProblem, 'file'> | undefined;
  visit(document, {
    Pair(_key, pair, ancestors) {
      if (startOf(pair.key) !== offset) return undefined;
      const key = keyText(pair.key) ?? '';
      const map = ancestors.at(-1);
      const first = isMap(map) ? map.items.find((item) => keyText(item.key) === key) : undefined;
      const firstStart = startOf(first?.key);
      const lines = firstStart === undefined || first === pair ? '' : `, on lines ${lineCounter.linePos(firstStart).line} and ${lineCounter.linePos(offset).line}`;
      found = { ...placeIn(document, dataPathOf(ancestors, pair)), message: `the key ${JSON.stringify(key)} appears twice in the same mapping${lines}; keep one` };
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * What the yaml package would throw on while building the data, with neither a line nor a field,
 * found first with both: an alias (`*name`, or a `<<: *name` merge) whose anchor (`&name`) is not
 * defined above it, a merge of something that is not a mapping, and a key that is a list or a
 * mapping (`? [a, b]: x`).
 */
function structureProblems(document: Document.Parsed, lineCounter: LineCounter, file: string): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  const add = (node: unknown, ancestors: readonly unknown[], target: unknown, message: string) =>
    problems.push({ file, line: lineCounter.linePos(startOf(node) ?? 0).line, ...placeIn(document, dataPathOf(ancestors, target)), message });
  visit(document, {
    Alias(_key, node, ancestors) {
      if (node.resolve(document) !== undefined) return;
      const parent = ancestors.at(-1);
      const merge = isPair(parent) && keyText(parent.key) === '<<';
      const what = merge ? 'merge' : 'alias';
      add(node, ancestors, node, `${merge ? 'merges' : 'refers to'} *${node.source}, but no anchor &${node.source} is defined before it; define it (e.g. \`defaults: &${node.source}\`) or remove the ${what}`);
    },
    Pair(_key, pair, ancestors) {
      if (isMap(pair.key) || isSeq(pair.key)) {
        add(pair.key, ancestors.slice(0, -1), ancestors.at(-1), 'a key is a list or a mapping; keys are names, like `keyword:` or `title:`');
      } else if (keyText(pair.key) === '<<' && !mergeable(document, pair.value)) {
        add(pair.key, ancestors, pair, 'merges something that is not a mapping; `<<:` takes an alias of a mapping, like `<<: *defaults`, or a list of them');
      }
    },
  });
  return problems;
}

/** A merge source yaml can use: a mapping, an alias of one, or a list of those; a missing anchor is reported on its own. */
function mergeable(document: Document.Parsed, value: unknown): boolean {
  const sources = isSeq(value) ? value.items : [value];
  return sources.every((source) => {
    if (isAlias(source) && source.resolve(document) === undefined) return true;
    return isMap(isAlias(source) ? source.resolve(document) : source);
  });
}

/** Reads YAML text (BOM already removed) into data and positions. */
export function readYamlManifest(text: string, file: string): ManifestDocument {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, merge: true, uniqueKeys: true });
  const { locate, literal } = yamlLocator(document, lineCounter, text);
  // Nesting deeper than the parser's stack: one problem, not each level's repeat and the indentation errors that follow from it.
  if (document.errors.some((error) => error.code === 'RESOURCE_EXHAUSTION')) return { format: 'yaml', data: undefined, locate, literal, problems: [{ file, section: 'file', message: TOO_DEEP }] };
  const problems = [...document.errors, ...document.warnings].map((error) => yamlErrorProblem(error, file, lineCounter, document));
  // Duplicate keys leave a usable document (the first value wins), so keep checking the rest.
  if (document.errors.some((error) => error.code !== 'DUPLICATE_KEY')) return { format: 'yaml', data: undefined, locate, literal, problems };
  const structure = structureProblems(document, lineCounter, file);
  if (structure.length > 0) return { format: 'yaml', data: undefined, locate, literal, problems: [...problems, ...structure] };
  try {
    return { format: 'yaml', data: document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), locate, literal, problems };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    problems.push({ file, section: 'file', message: dataError(error) });
    return { format: 'yaml', data: undefined, locate, literal, problems };
  }
}

/** Why the yaml package could not build the data: too deep, too many aliases, or its own words for what the checks above did not foresee. */
function dataError(error: Error): string {
  if (error instanceof RangeError) return TOO_DEEP;
  if (error instanceof ReferenceError) return `the YAML expands too many aliases (*name), over ${MAX_ALIAS_COUNT}; write the entries out or use \`defaults\``;
  return `the YAML cannot be read: ${error.message}`;
}
