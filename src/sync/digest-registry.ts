// Digests of texts this process has seen, the latest few per key: one registry per process, whichever copy of the module
// loaded it (Astro may load the package twice in one build), kept on globalThis under a registered symbol.
import { createHash } from 'node:crypto';

export function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

export interface DigestRegistry {
  add(key: string, digest: string): void;
  has(key: string, digest: string): boolean;
  /** The digests kept for `key`, the latest last. */
  list(key: string): readonly string[];
}

/** The registry `name`, keeping the latest `keep` digests of each key. */
export function digestRegistry(name: string, keep: number): DigestRegistry {
  const symbol = Symbol.for(`astro-article-loader.${name}`);
  const lists = (): Map<string, string[]> => {
    const holder = globalThis as { [key: symbol]: Map<string, string[]> | undefined };
    return (holder[symbol] ??= new Map());
  };
  return {
    add(key, digest) {
      const kept = (lists().get(key) ?? []).filter((other) => other !== digest);
      kept.push(digest);
      lists().set(key, kept.slice(-keep));
    },
    has: (key, digest) => lists().get(key)?.includes(digest) === true,
    list: (key) => lists().get(key) ?? [],
  };
}
