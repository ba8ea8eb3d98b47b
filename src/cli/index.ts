#!/usr/bin/env node
// The astro-article-loader bin: the command line (cli/main.ts) run against this process's streams, environment and folder.
import module from 'node:module';

// V8 keeps the code it compiled for the modules a command loads on disk between runs, as Astro's own
// bin does (Node 22.1 and later; in the system temp directory, code only): a command starts sooner.
// Enabled before the command line is imported, so its modules are cached too.
module.enableCompileCache?.();
const { main } = await import('./main.js');
process.exitCode = await main(process.argv.slice(2));
