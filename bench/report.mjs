// The benchmark report: each figure beside its target, the measured/target ratio, and ok or miss.

import { pathToFileURL } from 'node:url';

/** The number a target like "≤ 1.15", "≥ 400" or "= 200" compares against, and how. */
function parseTarget(target) {
  const match = /^\s*(≤|<=|≥|>=|=)\s*([\d.]+)/.exec(String(target ?? ''));
  if (match === null) return undefined;
  const op = match[1] === '<=' ? '≤' : match[1] === '>=' ? '≥' : match[1];
  return { op, value: Number(match[2]) };
}

/** measured / target for "≤" targets (below 1 is good), target / measured for "≥" (below 1 is good too). */
function ratioOf(figure) {
  const target = parseTarget(figure.target);
  if (target === undefined || typeof figure.value !== 'number' || target.value === 0 || figure.value === 0) return '';
  const ratio = target.op === '≥' ? target.value / figure.value : figure.value / target.value;
  return ratio.toFixed(2);
}

function statusOf(figure) {
  if (figure.target === undefined) return '';
  if (figure.ok === undefined) return '?';
  return figure.ok ? 'ok' : 'MISS';
}

function formatValue(figure) {
  const value = typeof figure.value === 'number' ? String(figure.value) : String(figure.value ?? '');
  return figure.unit ? `${value} ${figure.unit}` : value;
}

/** Rows of one benchmark's figures, columns aligned across all given results. */
export function formatResults(results) {
  const rows = [];
  for (const result of results) {
    rows.push({ heading: result.name, notes: result.notes ?? [], error: result.error });
    for (const figure of result.figures ?? []) {
      rows.push({ cells: [figure.label, formatValue(figure), figure.target ?? '', ratioOf(figure), statusOf(figure)] });
    }
  }
  const header = ['figure', 'measured', 'target', 'ratio', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.filter((r) => r.cells).map((r) => r.cells[i].length)));
  const line = (cells) => cells.map((cell, i) => (i === 1 || i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of rows) {
    if (row.cells) {
      out.push(line(row.cells));
      continue;
    }
    out.push('', `## ${row.heading}`);
    for (const note of row.notes) out.push(`   ${note}`);
    if (row.error) out.push(`   FAILED: ${row.error}`);
  }
  out.push('', 'ratio: measured/target for "≤" targets, target/measured for "≥" targets; ≤ 1.00 meets the target.');
  return out.join('\n');
}

export function printResult(result) {
  console.log(formatResults([result]));
}

/** A benchmark module run directly (`node bench/x.mjs`): its `run()`, printed. */
export function runIfMain(moduleUrl, run) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  run().then(
    (results) => [results].flat().forEach(printResult),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
