// A dev server started through Astro's JavaScript API, so a test can stop it (astro:server:done runs) and then look at the process.
// Commands on stdin: `queues` prints the collections the loaders keep a queue for; `stop` stops the dev server and
// leaves the process running; end of stdin lets the process end.
import { dev } from 'astro';

const [root, port] = process.argv.slice(2);
let stopping = false;
// Vite hands Astro's logger an Error when a file-change handler fails (vite/dist/node/chunks/node.js,
// `onFileChange(file).catch((e) => server.config.logger.error(e))`), and Astro's logger calls
// `msg.includes` on it: a TypeError that ends the process. It happens when the server is stopped while
// it still handles the writes of an article that just finished. Once `stop` was asked, this harness
// prints it and carries on, so the test sees what the stop did; before, it ends the process as it would.
process.on('unhandledRejection', (reason) => {
  if (!stopping) throw reason;
  console.log(`dev-child: while stopping, an upstream error: ${reason?.message ?? reason}`);
});
const server = await dev({ root, server: { host: '127.0.0.1', port: Number(port) } });
console.log(`dev-child: ready at http://127.0.0.1:${server.address.port}`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  if (text.includes('queues')) {
    // The collections whose queues the loaders keep in this process (what the toolbar panel lists).
    const runtime = globalThis[Symbol.for('astro-article-loader.runtime')];
    console.log(`dev-child: queues ${JSON.stringify([...(runtime?.queues.keys() ?? [])].sort())}`);
  }
  if (!text.includes('stop')) return;
  stopping = true;
  server.stop().then(
    // What still keeps the process alive, for a test that finds it does not exit.
    () => console.log(`dev-child: stopped (active: ${process.getActiveResourcesInfo().join(', ')})`),
    (error) => console.log(`dev-child: stop failed: ${error?.stack ?? error}`),
  );
});
