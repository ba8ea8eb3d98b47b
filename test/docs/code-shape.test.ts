// The shape the house keeps: functions fit on a screen, and no file of the loader grows back into one that holds several ideas.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');
const MAX_FUNCTION_LINES = 60;
const MAX_LOADER_FILE_LINES = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** Every function-like node of a file with a body, and its length in lines. */
function functionLengths(file: string): { name: string; lines: number }[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = (node as { name?: ts.Node }).name?.getText(source) ?? '(anonymous)';
      found.push({ name: `${path.relative(SRC, file)}:${start + 1} ${name}`, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the shape of src/', () => {
  it(`should have no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = sourceFiles(SRC).flatMap(functionLengths).filter((fn) => fn.lines > MAX_FUNCTION_LINES);
    expect(long).toEqual([]);
  });

  it(`should keep every file of src/loader/ at most ${MAX_LOADER_FILE_LINES} lines`, () => {
    const files = sourceFiles(path.join(SRC, 'loader'));
    expect(files.length).toBeGreaterThan(10);
    const long = files.map((file) => ({ file: path.relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length })).filter((f) => f.lines > MAX_LOADER_FILE_LINES);
    expect(long).toEqual([]);
  });
});
