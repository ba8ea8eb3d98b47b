const [pre, target] = process.argv.slice(2);
for (const p of pre ? pre.split(',') : []) await import(p);
const t = performance.now();
await import(target);
console.log((performance.now() - t).toFixed(1));
