// This package's version, read once from its package.json: what a release may make differently (entry digests, processed records, the checks' findings) is keyed on it.
import { createRequire } from 'node:module';

export const PACKAGE_VERSION = packageVersion();

function packageVersion(): string {
  try {
    return String((createRequire(import.meta.url)('../../package.json') as { version?: unknown }).version ?? '0');
  } catch {
    return '0';
  }
}
