import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
const root = resolve(process.argv[2]);
const seen = new Set([root]); const queue = [root]; const importers = new Map();
while (queue.length) {
  const file = queue.shift();
  const src = readFileSync(file, 'utf8');
  for (const m of src.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'|^import\s+'([^']+)'/gms)) {
    const spec = m[1] ?? m[2];
    if (/^import\s+type|^export\s+type/.test(m[0])) continue;
    const target = spec.startsWith('.') ? resolve(dirname(file), spec) : 'pkg:' + spec;
    if (!importers.has(target)) importers.set(target, []);
    importers.get(target).push(file.replace(/^.*\/dist\//, ''));
    if (spec.startsWith('.') && !seen.has(target)) { seen.add(target); queue.push(target); }
  }
}
for (const q of process.argv.slice(3)) for (const [k, v] of importers) if (k.includes(q)) console.log(k.replace(/^.*\/dist\//, ''), '←', v.join(', '));
