// What counts as a mapping in parsed data (a manifest, a request, a JSON body): an object that is not an array, a date or bytes.

/**
 * True for `{ … }` as JSON, YAML or a config file gives it. A YAML timestamp (a `Date`) and
 * `!!binary` bytes (a `Uint8Array`) are values, not mappings, wherever they turn up.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof Uint8Array);
}
