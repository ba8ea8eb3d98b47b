// Test harness: module hooks, passed to a child through NODE_OPTIONS, that write every module it resolves to a file.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The two files to write into a folder: the hooks, and what registers them. */
export const MODULE_LOG_FILES: Record<string, string> = {
  'hooks.mjs': `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.AAL_MODULE_LOG, resolved.url + '\\n');
  return resolved;
}
`,
  'register.mjs': `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
`,
};

/** The environment that makes a child in which `dir` holds MODULE_LOG_FILES write the modules it resolves to `logFile`. */
export function moduleLogEnv(dir: string, logFile: string): { NODE_OPTIONS: string; AAL_MODULE_LOG: string } {
  return { NODE_OPTIONS: `--import ${pathToFileURL(path.join(dir, 'register.mjs')).href}`, AAL_MODULE_LOG: logFile };
}
