import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../../src/lang/plain-object.js';

describe('isPlainObject', () => {
  it('should take a mapping as JSON, YAML or code gives it', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(JSON.parse('{"a":1}'))).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
  });

  it.each([null, undefined, 'text', 3, [], new Date(0), new Uint8Array(2), Buffer.from('x')])('should refuse %o', (value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});
