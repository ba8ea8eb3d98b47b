// The last manifest a pass of this collection resolved, kept in Astro's cache directory beside the data store
// (node_modules/.astro/astro-article-loader/manifest-<collection>.bin): a warm build whose manifest file is unchanged does not
// parse and check it again (a tenth of a 1,000-article warm build's load()). It goes when the data store goes; a damaged or
// older file is a miss, and only a manifest without problems is kept, so a bad one is always read and reported.
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Manifest, ManifestMemo } from '../manifest/index.js';
import { writeFileAtomic } from '../sync/atomic-file.js';
import { PACKAGE_VERSION } from './entry-inputs.js';

interface Kept {
  version: string;
  digest: string;
  manifest: Manifest;
}

/** The memo of `collection`, in `dir` (the loader's directory in Astro's cache). */
export function manifestMemo(dir: string, collection: string): ManifestMemo {
  const file = join(dir, `manifest-${encodeURIComponent(collection)}.bin`);
  return {
    async get(digest) {
      const kept = await readKept(file);
      return kept?.version === PACKAGE_VERSION && kept.digest === digest ? kept.manifest : undefined;
    },
    async set(digest, manifest) {
      const kept: Kept = { version: PACKAGE_VERSION, digest, manifest };
      await mkdir(dirname(file), { recursive: true });
      // v8's serializer keeps what JSON would lose (a publishDate's Date, shared objects); the manifest room freezes the requests again.
      await writeFileAtomic(file, serialize(kept), { durable: false });
    },
  };
}

async function readKept(file: string): Promise<Partial<Kept> | undefined> {
  try {
    const value: unknown = deserialize(await readFile(file));
    return value !== null && typeof value === 'object' ? (value as Partial<Kept>) : undefined;
  } catch {
    return undefined;
  }
}
