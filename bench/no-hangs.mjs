// No-hangs benchmark: how long `astro build` takes, with the default settings, when the service is silent or refuses connections.
//
// Run: npm run build && node bench/no-hangs.mjs
//
// The test fixture site (three articles) is built once against an emulator, so its lock file and
// cache hold every article; then one cached output is deleted (a clone missing a file) and the site
// is built against a service that accepts connections and never answers, and against a refused
// port. The build must end, serving the two cached articles, within 2 minutes and 15 seconds.

import { once } from 'node:events';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAstroBuild } from './astro-child.mjs';
import { installModules } from './warm-sites.mjs';
import { importDist } from './dist-location.mjs';

const REPO = resolve(fileURLToPath(new URL('..', import.meta.url)));
const TARGETS = { silent: 120, refused: 15 };

async function makeSite(root) {
  await cp(join(REPO, 'fixtures/sites/basic'), root, { recursive: true });
  await installModules(root);
}

async function astroBuild(root, env) {
  const { code, output, wallMs } = await runAstroBuild(root, env);
  return { code, output, seconds: wallMs / 1000 };
}

/** Accepts connections and never answers. */
async function silentService() {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => server.close(done));
    },
  };
}

async function refusedPort() {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}`;
}

export async function run() {
  const { startEmulator } = await importDist('emulator/index.js');
  const root = await mkdtemp(join(tmpdir(), 'aal-bench-hangs-'));
  const key = 'bench-no-hangs-key-1234';
  try {
    await makeSite(root);
    const emulator = await startEmulator({ timing: 'instant', accounts: [{ apiKey: key }] });
    const first = await astroBuild(root, { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: key });
    await emulator.stop();
    if (first.code !== 0) throw new Error(`the first build failed:\n${first.output.slice(-3000)}`);
    const lock = JSON.parse(await readFile(join(root, 'articles.lock.json'), 'utf8'));
    const [, entry] = Object.entries(lock.articles)[0];
    await rm(join(root, 'articles.cache/outputs', `${entry.output.slice('sha256:'.length)}.json`));
    const figures = [];
    const silent = await silentService();
    for (const [name, url] of [['silent', silent.url], ['refused', await refusedPort()]]) {
      await rm(join(root, '.astro'), { recursive: true, force: true });
      await rm(join(root, 'node_modules/.astro'), { recursive: true, force: true });
      const build = await astroBuild(root, { ARTICLES_API_URL: url, ARTICLES_API_KEY: key });
      const pages = (await readdir(join(root, 'dist/articles'))).length;
      const label = name === 'silent' ? 'a service that never answers: build with 1 missing output' : 'a refused port: build with 1 missing output';
      figures.push({ label, value: Math.round(build.seconds * 10) / 10, unit: 's', target: `≤ ${TARGETS[name]}`, ok: build.code === 0 && build.seconds <= TARGETS[name] });
      figures.push({ label: `  pages built (of 3), exit code ${build.code}`, value: pages });
    }
    await silent.stop();
    return { name: 'no hangs', figures, notes: ['default settings: 30 s per request, the client stops asking after 3 requests in a row get no answer'] };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
