// `astro build --verbose`: Vite's vite:env log dumps the environment (by design); we warn about it, and nothing else we print holds the key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { debugPrintsEnv } from '../../src/loader/debug-env.js';
import { astro, buildPackage, createSite, type Site } from './astro-project.js';

const CANARY = 'sk-live-VERBOSE-canary-5e1f9a7c';

/** Every form of the key a log could carry it in. */
function encodings(key: string): string[] {
  const bytes = Buffer.from(key);
  return [key, bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('hex'), bytes.toString('hex').toUpperCase(), encodeURIComponent(key)];
}

/** The build log without Vite's own `vite:env using resolved env: { … }` blocks. */
function withoutEnvDumps(log: string): string {
  const kept: string[] = [];
  let inDump = false;
  for (const line of log.split('\n')) {
    if (!inDump && /vite:env using resolved env: \{$/.test(line)) inDump = true;
    else if (inDump && line === '}') inDump = false;
    else if (!inDump) kept.push(line);
  }
  return kept.join('\n');
}

describe('DEBUG patterns', () => {
  it('should tell which DEBUG values turn vite:env on, as the debug package reads them', () => {
    expect(debugPrintsEnv('astro:*,vite:*')).toBe(true);
    expect(debugPrintsEnv('*')).toBe(true);
    expect(debugPrintsEnv('vite:env')).toBe(true);
    expect(debugPrintsEnv('astro:* vite:*')).toBe(true);
    expect(debugPrintsEnv('astro:*')).toBe(false);
    expect(debugPrintsEnv('astro:*,vite:*,-vite:env')).toBe(false);
    expect(debugPrintsEnv('vite:envx')).toBe(false);
    expect(debugPrintsEnv(undefined)).toBe(false);
    expect(debugPrintsEnv('')).toBe(false);
  });
});

describe('astro build --verbose', () => {
  let emulator: RunningEmulator;
  let site: Site;

  beforeAll(async () => {
    await buildPackage();
    emulator = await startEmulator({ timing: 'instant', accounts: [{ apiKey: CANARY, plan: 'professional' }] });
    site = await createSite('toolbar');
  });

  afterAll(async () => {
    await emulator?.stop();
    await site?.cleanup();
  });

  it('should warn that the log holds the key, early and at its end, and print the key nowhere but in Vite\'s env dump', async () => {
    // A new keyword: the build talks to the service (creates, polls) with --verbose on.
    const { appendFile } = await import('node:fs/promises');
    await appendFile(`${site.root}/articles.yaml`, '  - verbose build keyword\n');
    const { code, output } = await astro(site.root, ['build', '--verbose'], { ARTICLES_API_URL: emulator.url, ARTICLES_API_KEY: CANARY });
    expect(code, output.slice(-3000)).toBe(0);
    expect(emulator.ledger.totals.creations).toBe(1);
    const warnings = output.split('\n').filter((line) => line.includes('this log will contain your API key'));
    expect(warnings.length).toBeGreaterThanOrEqual(2);
    const lines = output.trimEnd().split('\n');
    expect(lines.slice(-12).some((line) => line.includes('this log will contain your API key'))).toBe(true);
    // The dump is Vite's (and holds the key, which is why we warn); everything else must not.
    expect(output).toContain(CANARY);
    const rest = withoutEnvDumps(output);
    for (const form of encodings(CANARY)) expect(rest.includes(form), `the key appeared as ${form === CANARY ? 'itself' : 'an encoding'}`).toBe(false);
  }, 240_000);
});
