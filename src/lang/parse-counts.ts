// How many times this process parsed each file of a kind (the manifest, the lock file), for a build's debug line: one build reads each once, however many collections or passes it has.
/** Per process, whichever copy of the package counts (Astro may load it twice in one build): kept on globalThis under a registered symbol. */
function counts(kind: string): Map<string, number> {
  const holder = globalThis as { [key: symbol]: Map<string, number> | undefined };
  return (holder[Symbol.for(`astro-article-loader.parses.${kind}`)] ??= new Map());
}

/** Counts one parse of `file` as a `kind` ('manifest', 'lock'). */
export function countParse(kind: string, file: string): void {
  const map = counts(kind);
  map.set(file, (map.get(file) ?? 0) + 1);
}

/** How many times this process parsed `file` as a `kind`. */
export function parsesOf(kind: string, file: string): number {
  return counts(kind).get(file) ?? 0;
}
