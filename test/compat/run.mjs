// `npm run test:compat`: builds the fixture site with Astro 6 and Astro 7 (on the repository's Node 22), each
// installed from the registry into a temp dir next to the packed package, against the emulator; then once more
// offline, where the loader imports its build machinery at load() and starts its embedded emulator inside
// Astro's process (Astro 5 closed its module runner before load(), so that import failed there: see docs/builds.md).
//
// Slow (two npm installs) and needs the npm registry, so it is not part of `npm test`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../..');
const fixture = join(repo, 'fixtures/sites/basic');
const SLUGS = ['espresso-machines', 'best-espresso-machines', 'how-to-descale-an-espresso-machine'];

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

function childEnv(extra) {
  const env = { ...process.env, NO_COLOR: '1', ASTRO_TELEMETRY_DISABLED: '1', ...extra };
  delete env.CI;
  delete env.NODE_ENV;
  return env;
}

async function main() {
  const built = spawnSync(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repo, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the package build failed');
  const work = await mkdtemp(join(tmpdir(), 'aal-compat-'));
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: repo, encoding: 'utf8' }));
  const tarball = join(work, packed[0].filename);

  const targets = [
    { astro: 'astro@6', node: process.execPath, nodeVersion: process.version },
    { astro: 'astro@7', node: process.execPath, nodeVersion: process.version },
  ];

  const { startEmulator } = await import(join(repo, 'dist/emulator/index.js'));
  const emulator = await startEmulator({ timing: 'instant' });
  const env = childEnv({ ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: emulator.apiKey });
  const failures = [];
  try {
    for (const target of targets) {
      const site = join(work, target.astro.replace('@', '-'));
      await cp(fixture, site, { recursive: true });
      await writeFile(join(site, 'package.json'), JSON.stringify({ name: 'compat-site', private: true, type: 'module' }, null, 2));
      const install = await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', target.astro, tarball], { cwd: site, env: childEnv() });
      if (install.code !== 0) {
        failures.push(`${target.astro}: npm install failed\n${install.output}`);
        continue;
      }
      const manifest = JSON.parse(readFileSync(join(site, 'node_modules/astro/package.json'), 'utf8'));
      const version = manifest.version;
      const astroBin = join(site, 'node_modules/astro', typeof manifest.bin === 'string' ? manifest.bin : manifest.bin.astro);
      const first = await run(target.node, [astroBin, 'build'], { cwd: site, env });
      const missing = SLUGS.filter((slug) => !existsSync(join(site, 'dist/articles', slug, 'index.html')));
      if (first.code !== 0 || missing.length > 0) {
        failures.push(`${target.astro} (${version}, Node ${target.nodeVersion}): build failed${missing.length > 0 ? `, missing ${missing.join(', ')}` : ''}\n${first.output}`);
        continue;
      }
      const requests = emulator.requests.length;
      const second = await run(target.node, [astroBin, 'build'], { cwd: site, env });
      if (second.code !== 0 || emulator.requests.length !== requests) {
        failures.push(`${target.astro} (${version}): the second build ${second.code !== 0 ? 'failed' : `made ${emulator.requests.length - requests} requests`}\n${second.output}`);
        continue;
      }
      const offlineEnv = childEnv();
      delete offlineEnv.ARTICLES_API_URL;
      delete offlineEnv.ARTICLES_API_KEY;
      for (const made of ['articles.lock.json', 'articles.cache', 'dist']) await rm(join(site, made), { recursive: true, force: true });
      const offline = await run(target.node, [astroBin, 'build'], { cwd: site, env: offlineEnv });
      const offlineMissing = SLUGS.filter((slug) => !existsSync(join(site, 'dist/articles', slug, 'index.html')));
      if (offline.code !== 0 || offlineMissing.length > 0 || !offline.output.includes('embedded emulator')) {
        failures.push(`${target.astro} (${version}): the offline build (embedded emulator) failed${offlineMissing.length > 0 ? `, missing ${offlineMissing.join(', ')}` : ''}\n${offline.output}`);
        continue;
      }
      console.log(`- ${target.astro} (${version}) on Node ${target.nodeVersion}: built ${SLUGS.length} article pages; the rebuild made 0 requests; offline, the embedded emulator wrote them`);
    }
  } finally {
    await emulator.stop();
    await rm(work, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\n${failures.length} compatibility build(s) failed:\n\n${failures.join('\n\n')}`);
    process.exitCode = 1;
  }
}

await main();
