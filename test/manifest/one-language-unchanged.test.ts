// A site in one language is unchanged by `languages` (issue 27): its specs, request hashes and lock file text are the bytes main made before it.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/index.js';
import { explicitParameters, requestHash } from '../../src/sync/canonical-request.js';
import { serializeLockFile, type LockFile } from '../../src/sync/lock-file.js';

const GOOD = path.resolve(import.meta.dirname, '../../fixtures/manifests/good');
const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** Computed on main (eac3ca0), before several languages existed: file → [specs, request hashes, lock text]. */
const BEFORE: Record<string, [string, string, string]> = {
  'all-types.yaml': ['f4be2abdfff71c57', 'd57ec3029abf97dc', '6bdc1ea92e617d23'],
  'anchors.yml': ['f400f71f4e1f0632', '990967e3f0d95c92', 'a5e597ae6a5a2dc0'],
  'basic.json': ['eb82f094015d23f9', '3addb4b3a8d96fda', 'e80c68ce79693a0a'],
  'basic.yaml': ['35eb50376ee8d08f', '74a0dadd81145416', '60c1532970eb4fe2'],
  'crlf-bom.json': ['842587aebe525d7c', '11bfadd8e507d093', '44727eb589bb5b35'],
  'crlf-bom.yaml': ['b9bad8ef0cb42995', '19063f98e4890cba', 'f6769df87bc702d1'],
  'defaults-merge.yaml': ['8db5ecc6e3a669fe', '4a9ed7a18451072b', 'bda256507923386e'],
  'keywords.csv': ['cf3e13c89d5cfdc8', '4be0c54d53421650', '463a56ef6e5177ea'],
  'semicolon-bom-crlf.csv': ['708efd3a0ba88e6a', '1e968b4cb42be609', 'ad7e208654447bd0'],
  'slugs.yaml': ['66dc378b62711db5', '96bea0c160692009', '76ed07274cd9b2ac'],
};

/** What a manifest makes: its specs as JSON, each request hash, and a lock file holding one entry per spec. */
function made(file: string): [string, string, string] {
  const manifest = parseManifest(readFileSync(path.join(GOOD, file), 'utf8'), `fixtures/manifests/good/${file}`);
  const lock: LockFile = { version: 1, articles: {} };
  for (const spec of manifest.specs) {
    const at = '2026-01-01T00:00:00.000Z';
    lock.articles[spec.slug] = { keyword: spec.keyword, status: 'pending', hash: requestHash(spec.request), articleId: `a-${spec.index}`, attempt: 1, createdAt: at, updatedAt: at, request: explicitParameters(spec.request) } as LockFile['articles'][string];
  }
  return [sha(JSON.stringify(manifest.specs)), sha(manifest.specs.map((spec) => `${spec.slug} ${requestHash(spec.request)}`).join('\n')), sha(serializeLockFile(lock))];
}

describe('a one-language site', () => {
  it('should make the specs, request hashes and lock file text it made before languages existed', () => {
    const now = Object.fromEntries(readdirSync(GOOD).sort().map((file) => [file, made(file)]));
    if (process.env.PRINT_BEFORE) console.log(JSON.stringify(now));
    expect(now).toEqual(BEFORE);
  });
});
