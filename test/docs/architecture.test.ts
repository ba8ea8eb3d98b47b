// docs/architecture.md stays true: every module it names exists, each room imports exactly the rooms its table lists (static, dynamic and type imports alike), and src/ has no import cycle, not even through types.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = path.join(ROOT, 'src');
const doc = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/**
 * Every way a module names another: `import … from`, `import type … from`, `export … from`,
 * `export type … from`, a bare `import '…'`, and `import('…')` with a string literal (the CLI
 * loads its commands and the emulator that way).
 */
const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*(['"])(\.[^'"]+)\1/gms,
  /^\s*import\s*(['"])(\.[^'"]+)\1/gm,
  /\bimport\s*\(\s*(['"`])(\.[^'"`$]+)\1\s*\)/g,
];

/** The modules a file imports, resolved to paths under src/, type-only imports included. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return IMPORT_PATTERNS.flatMap((pattern) =>
    [...text.matchAll(pattern)].map((match) => path.resolve(path.dirname(file), match[2]!.replace(/\.js$/, '.ts'))),
  );
}

/** `import(…)` whose module is not a string literal: no test could see where it leads. */
function computedImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/\bimport\s*\(\s*(?!(['"])\.[^'"]+\1\s*\)|(['"])[^.'"][^'"]*\2\s*\))([^)\s][^)]*)\)/g)].map((match) => `${path.relative(SRC, file)}: import(${match[3]})`);
}

const roomOf = (file: string): string => path.relative(SRC, file).split(path.sep)[0]!.replace(/\.ts$/, '');

/** The room graph of src/: each room and the rooms its files import (room → room arrows). */
function roomArrows(files: readonly string[], rooms: ReadonlySet<string>): Map<string, Map<string, string>> {
  const arrows = new Map<string, Map<string, string>>();
  for (const file of files) {
    const room = roomOf(file);
    if (!rooms.has(room)) continue;
    for (const target of importsOf(file)) {
      const other = roomOf(target);
      if (other === room || !rooms.has(other)) continue;
      const seen = arrows.get(room) ?? new Map<string, string>();
      if (!seen.has(other)) seen.set(other, `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
      arrows.set(room, seen);
    }
  }
  return arrows;
}

/** Each cycle of the module graph, as `a.ts → b.ts → a.ts`. */
function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(SRC, f)).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return cycles;
}

describe('docs/architecture.md', () => {
  it('should name only modules that exist', () => {
    const named = [...doc.matchAll(/`((?:[a-z-]+\/)+[a-z-]+\.ts)`/g)].map((match) => match[1]!.replace(/^src\//, ''));
    expect(named.length).toBeGreaterThan(20);
    for (const module of new Set(named)) expect(statSync(path.join(SRC, module), { throwIfNoEntry: false })?.isFile(), module).toBe(true);
    const names = new Set(sourceFiles(SRC).map((file) => path.basename(file)));
    const bare = [...doc.matchAll(/`([a-z-]+\.ts)`/g)].map((match) => match[1]!);
    expect(bare.length).toBeGreaterThan(5);
    for (const module of new Set(bare)) expect(names.has(module), `${module} is a module of src/`).toBe(true);
  });

  it('should see every kind of import: from, type, bare and dynamic', () => {
    const cli = path.join(SRC, 'cli/main.ts');
    expect(importsOf(cli)).toContain(path.join(SRC, 'emulator/command.ts'));
    expect(importsOf(path.join(SRC, 'api/client.ts'))).toContain(path.join(SRC, 'api/client-options.ts'));
    expect(sourceFiles(SRC).flatMap(computedImportsOf)).toEqual([]);
  });

  it('should list every room, each importing exactly the rooms its table row gives', () => {
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z]+)\/` \| [^|]+ \| ([^|]+) \|$/gm)].map((match) => [match[1]!, match[2]!.includes('nothing') ? [] : [...match[2]!.matchAll(/`([a-z]+)`/g)].map((m) => m[1]!)]),
    );
    const rooms = readdirSync(SRC).filter((name) => statSync(path.join(SRC, name)).isDirectory());
    expect([...rows.keys()].sort()).toEqual(rooms.sort());
    const arrows = roomArrows(sourceFiles(SRC), new Set(rooms));
    for (const room of rooms) {
      const actual = arrows.get(room) ?? new Map<string, string>();
      for (const [other, example] of actual) expect(rows.get(room), `an arrow ${room} → ${other} the page does not list: ${example}`).toContain(other);
      for (const other of rows.get(room)!) expect([...actual.keys()], `the page lists ${room} → ${other}, which no import makes`).toContain(other);
    }
  });

  it('should describe a src/ without import cycles, type imports included', () => {
    const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));
    expect(cyclesOf(graph)).toEqual([]);
  });
});
