// docs/architecture.md stays true: every module it names exists, each room imports only the rooms its table lists, and src/ has no import cycles.
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

/** The modules a file imports, resolved to paths under src/; `runtime` leaves out `import type` and `export type`. */
function importsOf(file: string, runtime: boolean): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)(\s+type)?\b[^;]*?from\s+'(\.[^']+)'/gms)) {
    if (runtime && match[1] !== undefined) continue;
    found.push(path.resolve(path.dirname(file), match[2]!.replace(/\.js$/, '.ts')));
  }
  return found;
}

const roomOf = (file: string): string => path.relative(SRC, file).split(path.sep)[0]!.replace(/\.ts$/, '');

describe('docs/architecture.md', () => {
  it('should name only modules that exist', () => {
    const named = [...doc.matchAll(/`([a-z-]+\/[a-z-]+\.ts)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(20);
    for (const module of new Set(named)) expect(statSync(path.join(SRC, module), { throwIfNoEntry: false })?.isFile(), module).toBe(true);
  });

  it('should list every room, each importing only the rooms its table row gives', () => {
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z]+)\/` \| [^|]+ \| ([^|]+) \|$/gm)].map((match) => [match[1]!, match[2]!.includes('nothing') ? [] : [...match[2]!.matchAll(/`([a-z]+)`/g)].map((m) => m[1]!)]),
    );
    const rooms = readdirSync(SRC).filter((name) => statSync(path.join(SRC, name)).isDirectory());
    expect([...rows.keys()].sort()).toEqual(rooms.sort());
    for (const file of sourceFiles(SRC)) {
      const room = roomOf(file);
      if (!rows.has(room)) continue;
      for (const target of importsOf(file, false)) {
        const other = roomOf(target);
        if (other === room || !rows.has(other)) continue;
        expect(rows.get(room), `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`).toContain(other);
      }
    }
  });

  it('should describe a src/ without import cycles (runtime imports)', () => {
    const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file, true)]));
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
    expect(cycles).toEqual([]);
  });
});
