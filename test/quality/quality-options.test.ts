// The quality settings: defaults, one error naming option and value with a did-you-mean, and the guide's tables from the one declaration.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUALITY_CODES, QualityOptionError, qualityCodesTable, qualityOptionsTable, resolveQualityOptions } from '../../src/quality/index.js';

function messageOf(input: unknown): string {
  try {
    resolveQualityOptions(input);
  } catch (error) {
    expect(error).toBeInstanceOf(QualityOptionError);
    expect((error as QualityOptionError).code).toBe('QUALITY_OPTION');
    return (error as Error).message;
  }
  throw new Error('expected a QualityOptionError');
}

describe('resolveQualityOptions', () => {
  it('should make writer_leftover, language_mismatch and keyword_missing errors and every other code a warning by default', () => {
    const { codes } = resolveQualityOptions();
    const errors = QUALITY_CODES.filter((code) => codes[code] === 'error');
    expect(errors.sort()).toEqual(['keyword_missing', 'language_mismatch', 'writer_leftover']);
    expect(QUALITY_CODES.filter((code) => codes[code] === 'warning')).toHaveLength(QUALITY_CODES.length - 3);
  });

  it('should default the thresholds', () => {
    expect(resolveQualityOptions({})).toMatchObject({ lengthBand: { below: 0.5, above: 1.75 }, nearDuplicateThreshold: 0.6, minLanguageWords: 50, minRepeatedWords: 8 });
  });

  it('should name an unknown code with a did-you-mean', () => {
    expect(messageOf({ codes: { keyword_mising: 'off' } })).toContain('unknown check code `codes.keyword_mising`; did you mean "keyword_missing"?');
  });

  it('should name a wrong severity and its value with a did-you-mean', () => {
    expect(messageOf({ codes: { heading_skip: 'warn' } })).toContain('`codes.heading_skip` is "warn": must be "error", "warning", "off"; did you mean "warning"?');
  });

  it('should name an unknown option with a did-you-mean', () => {
    expect(messageOf({ nearDuplicateTreshold: 0.8 })).toContain('unknown option `nearDuplicateTreshold`; did you mean "nearDuplicateThreshold"?');
  });

  it('should name a threshold out of range and its value', () => {
    expect(messageOf({ lengthBand: { below: 1.5 } })).toContain('`lengthBand.below` is 1.5: must be less than 1');
  });

  it('should list every problem in one error', () => {
    expect(messageOf({ codes: { heading_skip: 'warn' }, minLanguageWords: 0 })).toMatch(/have 2 wrong settings:\n {2}- .*\n {2}- /);
  });

  it('should derive the guide tables from the declaration', () => {
    expect(qualityOptionsTable().split('\n').slice(2).map((row) => /^\| `(\w+)`/.exec(row)?.[1])).toEqual(['codes', 'lengthBand', 'nearDuplicateThreshold', 'minLanguageWords', 'minRepeatedWords']);
    expect(qualityCodesTable()).toContain('| `writer_leftover` | error |');
    expect(qualityCodesTable().split('\n')).toHaveLength(QUALITY_CODES.length + 2);
  });
});

describe('docs/quality.md', () => {
  it('should show the tables the declaration gives', () => {
    const guide = readFileSync(path.resolve(import.meta.dirname, '../../docs/quality.md'), 'utf8');
    expect(guide).toContain(qualityCodesTable());
    expect(guide).toContain(qualityOptionsTable());
  });
});
