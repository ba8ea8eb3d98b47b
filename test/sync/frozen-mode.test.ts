import { afterEach, describe, expect, it, vi } from 'vitest';
import { frozenByDefault } from '../../src/sync/index.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('frozenByDefault', () => {
  it('should be on when CI is set to what CI services set', () => {
    for (const value of ['true', '1', 'TRUE', 'yes', ' true ']) expect(frozenByDefault({ CI: value })).toBe(true);
  });

  it('should be off when CI is unset, empty, 0 or false in any case', () => {
    for (const value of [undefined, '', '  ', '0', 'false', 'FALSE', ' False ']) expect(frozenByDefault({ CI: value })).toBe(false);
  });

  it('should read process.env when no environment is given', () => {
    vi.stubEnv('CI', 'true');
    expect(frozenByDefault()).toBe(true);
    vi.stubEnv('CI', '0');
    expect(frozenByDefault()).toBe(false);
  });
});
