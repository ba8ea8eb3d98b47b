// A manifest as read from one format: plain data, plus where each value was written, for messages.
import type { ManifestProblem } from './manifest-error.js';

/** 1-based line, and column where the format has a useful one. */
export interface SourcePosition {
  line: number;
  column?: number;
}

export type DataPath = readonly (string | number)[];

/** `polishSettings.humanize`, `urls[1]`, `outline[0].title`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.reduce<string>((name, segment) => {
    if (typeof segment === 'number') return `${name}[${segment}]`;
    return name === '' ? String(segment) : `${name}.${String(segment)}`;
  }, '');
}

/**
 * The entry and field of the value at `path`, for a problem a format reader finds (a duplicate
 * key, an alias to nothing): `articles[n]` and the field inside it, `defaults` and its field, or
 * the top level and the key there.
 */
export function placeOf(path: DataPath): Pick<ManifestProblem, 'section' | 'index' | 'field'> {
  const [top, index, ...rest] = path;
  const field = (segments: DataPath) => (segments.length === 0 ? {} : { field: fieldName(segments) });
  if (top === 'articles' && typeof index === 'number') return { section: 'articles', index, ...field(rest) };
  if (top === 'defaults' && index !== undefined) return { section: 'defaults', ...field(path.slice(1)) };
  return { section: 'top-level', ...field(path) };
}

export interface ManifestDocument {
  /** Where the data came from; advice is worded in its syntax. */
  format: 'yaml' | 'json' | 'csv' | 'inline';
  /** The manifest as plain values (objects, arrays, strings, numbers, booleans, null); undefined when it could not be read at all. */
  data: unknown;
  /** Where the value at `path` starts — for an object member, where its key is written. Undefined when the format has no lines. */
  locate(path: DataPath): SourcePosition | undefined;
  /** The scalar at `path` exactly as written (YAML `0777` stays `0777`), for "quote it" advice. */
  literal(path: DataPath): string | undefined;
  /** Problems found while reading (syntax, duplicate keys, unknown CSV columns); reported with the rest. */
  problems: ManifestProblem[];
}

/** A document for values that come from code (the loader's inline `articles` option): no lines. */
export function inlineDocument(data: unknown): ManifestDocument {
  return { format: 'inline', data, locate: () => undefined, literal: () => undefined, problems: [] };
}
