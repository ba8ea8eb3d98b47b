// The pipeline's modules import each other without cycles, type-only imports included (read with the TypeScript compiler API).

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const DIR = resolve(import.meta.dirname, '../../src/pipeline');

/** Each module of the folder → the modules of the folder it imports or re-exports from. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const name of readdirSync(DIR).filter((file) => file.endsWith('.ts'))) {
    const source = ts.createSourceFile(name, readFileSync(join(DIR, name), 'utf8'), ts.ScriptTarget.Latest);
    const targets: string[] = [];
    for (const statement of source.statements) {
      const specifier = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement.moduleSpecifier : undefined;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const target = resolve(DIR, specifier.text.replace(/\.js$/, '.ts'));
      if (dirname(target) === DIR) targets.push(target.slice(DIR.length + 1));
    }
    graph.set(name, targets);
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (module: string): void => {
    state.set(module, 'open');
    path.push(module);
    for (const target of graph.get(module) ?? []) {
      if (state.get(target) === 'open') found.push([...path.slice(path.indexOf(target)), target].join(' → '));
      else if (!state.has(target)) visit(target);
    }
    path.pop();
    state.set(module, 'done');
  };
  for (const module of graph.keys()) if (!state.has(module)) visit(module);
  return found;
}

test('should have no import cycle among the pipeline modules', () => {
  const graph = importGraph();
  expect(graph.get('processor.ts')).toContain('pipeline-options.ts');
  expect(cycles(graph)).toEqual([]);
});

test('should keep the plugins free of the processArticle context', () => {
  const graph = importGraph();
  const users = [...graph].filter(([module, targets]) => targets.includes('pipeline-options.ts') && module !== 'index.ts').map(([module]) => module);
  expect(users).toEqual(['processor.ts']);
});
