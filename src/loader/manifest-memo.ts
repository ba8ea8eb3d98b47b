// The last manifest a pass of this collection resolved, kept as a build note (build-notes.ts) in
// node_modules/.astro/astro-article-loader/manifest-<collection>.bin: a warm build whose manifest file is unchanged does not
// parse and check it again (a tenth of a 1,000-article warm build's load()). Another version's or a damaged note is a miss,
// and only a manifest without problems is kept, so a bad one is always read and reported. The note starts with a line naming the
// version and digest it was kept for, so a stale one is known from its first bytes, without decoding the rest.
import { deserialize } from 'node:v8';
import type { Manifest, ManifestMemo } from '../manifest/index.js';
import { noteFile, readNote, serializedNote, writeNote } from './build-notes.js';
import { PACKAGE_VERSION } from '../lang/package-version.js';

/** The note after its head, which alone says which version and manifest it is (see headOf). */
interface Kept {
  manifest: Manifest;
}

/** The memo of `collection`, in `dir` (the loader's directory in Astro's cache). */
export function manifestMemo(dir: string, collection: string): ManifestMemo {
  const file = noteFile(dir, 'manifest', collection, 'bin');
  return {
    async get(digest) {
      return (await readNote<Kept>(file, deserialize, headOf(digest)))?.manifest;
    },
    // v8's serializer keeps what JSON would lose (a publishDate's Date, shared objects); the manifest room freezes the requests again.
    set: (digest, manifest) => writeNote(file, serializedNote(headOf(digest), { manifest } satisfies Kept)),
  };
}

/** The note's first line: what it was kept for, read before the rest, which is decoded only when it is the manifest asked for. */
function headOf(digest: string): string {
  return `astro-article-loader ${PACKAGE_VERSION} manifest ${digest}\n`;
}
