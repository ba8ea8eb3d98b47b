// `npm run demo`: builds the playground with the repository's Node 22 and says where the site is and how to preview it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const playground = dirname(fileURLToPath(import.meta.url));
const repo = dirname(playground);
const astro = join(repo, 'node_modules/astro/bin/astro.mjs');

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `The playground needs Node 22.12 or newer (Astro 7); this is Node ${process.versions.node}.\n` +
      'Run it through npm, which uses the Node 22 the repository installs: npm run demo',
  );
  process.exit(1);
}
if (!existsSync(astro) || !existsSync(join(repo, 'dist/index.js'))) {
  console.error('Dependencies or the package build are missing: run `npm install` (it builds dist/), then `npm run demo`.');
  process.exit(1);
}

const result = spawnSync(process.execPath, [astro, 'build', '--root', playground], {
  cwd: repo,
  stdio: 'inherit',
  // A demo that is meant to work offline should not try to phone home either.
  env: { ...process.env, ASTRO_TELEMETRY_DISABLED: process.env.ASTRO_TELEMETRY_DISABLED ?? '1' },
});
if (result.status !== 0) {
  console.error('\nThe playground build failed; the lines above say why.');
  process.exit(result.status ?? 1);
}

const out = join(playground, 'dist');
const pages = countPages(out);
const shown = relative(process.cwd(), out) || out;
console.log(`
The playground is built: ${pages} pages in ${shown}/

  Preview the built site:   npx astro preview --root playground     (then open http://localhost:4321/)
  Run the dev server:       npm run playground:dev                   (edit playground/articles.yaml and watch)

Offline, the articles come from the embedded emulator (placeholder text, free). Set ARTICLES_API_URL
and ARTICLES_API_KEY to build against your service instead.`);

function countPages(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) count += countPages(join(dir, entry.name));
    else if (entry.name.endsWith('.html')) count += 1;
  }
  return count;
}
