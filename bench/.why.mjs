import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
const root = resolve(process.argv[2]);
const parent = new Map([[root, null]]); const queue = [root];
while (queue.length) {
  const file = queue.shift();
  const src = readFileSync(file, 'utf8');
  for (const m of src.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gms)) {
    const spec = m[1] ?? m[2];
    if (/^import\s+type|^export\s+type/.test(m[0])) continue;
    if (!spec.startsWith('.')) { const k = 'pkg:' + spec; if (!parent.has(k)) parent.set(k, file); continue; }
    const target = resolve(dirname(file), spec);
    if (!parent.has(target)) { parent.set(target, file); queue.push(target); }
  }
}
const short = (f) => f.replace(/^.*\/dist\//, '');
for (const q of process.argv.slice(3)) {
  for (const k of parent.keys()) if (k.includes(q)) { const chain = []; let c = k; while (c) { chain.push(short(c)); c = parent.get(c); } console.log(chain.reverse().join(' → ')); }
}
