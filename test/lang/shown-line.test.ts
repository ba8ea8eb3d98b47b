import { describe, expect, it } from 'vitest';
import { shownLine } from '../../src/lang/shown-line.js';

describe('shownLine', () => {
  it('should turn control characters, line breaks and bidi marks into single spaces', () => {
    expect(shownLine('a\u001b[31mb\r\nc\u0000\u0085d\u202Ee\u2066f\u2028g\ufeffh')).toBe('a [31mb c d e f g h');
  });

  it('should keep emoji joined and other scripts as they are', () => {
    expect(shownLine('Writing 👩‍🍳 section — Überblick, 概要')).toBe('Writing 👩‍🍳 section — Überblick, 概要');
  });

  it('should cut to the length given, counting characters, not UTF-16 units', () => {
    expect(shownLine('😀'.repeat(10), 5)).toBe('😀😀😀😀…');
    expect(shownLine('short', 5)).toBe('short');
  });
});
