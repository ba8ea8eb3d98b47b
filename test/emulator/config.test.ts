import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, loadEmulatorConfig, startEmulator } from '../../src/emulator/index.js';

const fixture = resolve(import.meta.dirname, '../../fixtures/emulator/emulator.json');
const env = { FIXTURE_EMULATOR_CI_KEY: 'fixture-ci-key', FIXTURE_EMULATOR_STARTER_KEY: 'fixture-starter-key', FIXTURE_EMULATOR_WEBHOOK_SECRET: generateWebhookSecret() };

describe('emulator config file', () => {
  it('should read accounts with keys from the environment and resolve the domains file next to it', async () => {
    const options = await loadEmulatorConfig(fixture, env);
    expect(options.accounts?.map((a) => [a.name, a.apiKey, a.plan])).toEqual([
      ['ci', 'fixture-ci-key', 'professional'],
      ['starter', 'fixture-starter-key', 'basic'],
    ]);
    expect(options.domains).toBe(resolve(import.meta.dirname, '../../fixtures/emulator/domains.json'));
    expect(options.timing).toBe('instant');
  });

  it('should start an emulator from the config whose accounts, plans and domains work', async () => {
    const emulator = await startEmulator(await loadEmulatorConfig(fixture, env));
    try {
      const post = (key: string) =>
        fetch(`${emulator.url}/api/internal-links/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ content: 'Feed the sourdough starter, then proof the dough.', format: 'markdown', domainId: 'bakery-blog' }),
        });
      const linked = await post('fixture-ci-key');
      expect(await linked.text()).toBe(
        'Feed the [sourdough starter](https://bakery.example/guides/sourdough-starter), then [proof the dough](https://bakery.example/guides/proofing).',
      );
      expect((await post('fixture-starter-key')).status).toBe(403);
      expect(emulator.balances()).toEqual([
        { account: 'ci', plan: 'professional', words: 200000, credits: 49 },
        { account: 'starter', plan: 'basic', words: 20000, credits: 0 },
      ]);
    } finally {
      await emulator.stop();
    }
  });

  it('should name a missing environment variable', async () => {
    await expect(loadEmulatorConfig(fixture, {})).rejects.toMatchObject({ code: 'emulator_invalid_config', message: expect.stringContaining('FIXTURE_EMULATOR_CI_KEY') });
  });

  it('should refuse unknown options with the path of the mistake', async () => {
    const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(resolve(tmpdir(), 'emulator-config-'));
    try {
      const file = resolve(dir, 'bad.json');
      await writeFile(file, JSON.stringify({ speed: 'warp', acounts: [] }));
      await expect(loadEmulatorConfig(file, {})).rejects.toMatchObject({ message: expect.stringMatching(/speed[\s\S]*acounts|acounts[\s\S]*speed/) });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should place a JSON mistake by line and column without quoting the file, which may hold keys', async () => {
    const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(resolve(tmpdir(), 'emulator-config-'));
    const key = 'sk-live-4f9c2a7e1b3d';
    try {
      const file = resolve(dir, 'emulator.json');
      // The key without its quotes: JSON.parse's own message quotes the text there ("apiKey": sk-live-…).
      await writeFile(file, `{\n  "accounts": [\n    { "name": "ci", "apiKey": ${key} }\n  ]\n}\n`);
      const error = await loadEmulatorConfig(file, {}).then(
        () => undefined,
        (thrown: Error) => thrown,
      );
      expect(error).toMatchObject({ code: 'emulator_invalid_config', message: `The emulator config file ${file} is not valid JSON at line 3, column 31. Fix the file there.` });
      for (const part of [key, 'sk-live', '4f9c']) expect(JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error?.cause ?? '')).not.toContain(part);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should refuse an invalid webhook secret without printing it', async () => {
    await expect(
      startEmulator({ integrations: [{ id: 'h', type: 'custom_webhook', url: 'http://127.0.0.1:9/', secret: 'plain-text-secret' }] }),
    ).rejects.toSatisfy((error: Error) => (error as { code?: string }).code === 'emulator_invalid_options' && !error.message.includes('plain-text-secret'));
  });
});
