// What a command loads: a run stopped by bad input never loads the service client, its HTTP stack, the emulator or the live display.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULE_LOG_FILES, moduleLogEnv } from '../module-log.js';
import { buildCli, manifestYaml, runCli, tempProject } from './cli-harness.js';

/** Loaded only when a run reaches the service or shows progress. */
const HEAVY = ['/node_modules/undici/', '/dist/api/', '/dist/service/article-service.js', '/dist/emulator/', '/node_modules/string-width/'];

let project: Awaited<ReturnType<typeof tempProject>>;

async function modulesLoadedBy(args: string[], log: string): Promise<{ code: number | null; modules: string[] }> {
  const logFile = path.join(project.dir, log);
  const env = moduleLogEnv(project.dir, logFile);
  const result = await runCli(args, { cwd: project.dir, env });
  const modules = (await readFile(logFile, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
  return { code: result.code, modules };
}

describe('what a command loads', () => {
  beforeAll(async () => {
    await buildCli();
    project = await tempProject({ ...MODULE_LOG_FILES, 'articles.yaml': manifestYaml(['startup check']), 'broken.yaml': 'articles:\n  - keyword: [\n' });
  });
  afterAll(() => project?.cleanup());

  it('should stop a sync at a bad manifest without loading the client, the HTTP stack, the emulator or the live display', async () => {
    const { code, modules } = await modulesLoadedBy(['sync', '-m', 'broken.yaml'], 'bad.log');
    expect(code).toBe(2);
    expect(modules.some((url) => url.endsWith('/dist/manifest/load-manifest.js'))).toBe(true);
    expect(modules.filter((url) => HEAVY.some((part) => url.includes(part)))).toEqual([]);
  });

  it('should load them once the run reaches the service', async () => {
    const { code, modules } = await modulesLoadedBy(['sync', '--offline', '--poll-interval', '20ms'], 'offline.log');
    expect(code).toBe(0);
    for (const part of ['/dist/service/article-service.js', '/dist/emulator/', '/node_modules/string-width/']) {
      expect(modules.some((url) => url.includes(part)), part).toBe(true);
    }
  });
});
