// Where the benchmarks import the compiled package from: ../dist, or AAL_DIST (another build, for A/B runs of a proposed change).

import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

// Made absolute here, so a child the bench starts in another directory (a site's) imports the same build.
if (process.env.AAL_DIST !== undefined) process.env.AAL_DIST = resolve(process.env.AAL_DIST);
const root = process.env.AAL_DIST === undefined ? new URL('../dist/', import.meta.url) : pathToFileURL(process.env.AAL_DIST + '/');

/** The file URL of a module of the compiled package, e.g. distUrl('sync/index.js'). */
export function distUrl(path) {
  return new URL(path, root).href;
}

/** Imports a module of the compiled package, with a message saying how to build it when it is missing. */
export async function importDist(path) {
  try {
    return await import(distUrl(path));
  } catch (error) {
    if (error?.code === 'ERR_MODULE_NOT_FOUND') {
      throw new Error(`The benchmarks need the compiled package (${distUrl(path)}): run \`npm run build\` first. (${error.message})`);
    }
    throw error;
  }
}
