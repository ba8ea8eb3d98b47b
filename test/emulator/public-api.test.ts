import { describe, expect, it } from 'vitest';
import * as emulator from '../../src/emulator/index.js';

describe('astro-article-loader/emulator', () => {
  it('should expose exactly its public API', () => {
    expect(Object.keys(emulator).sort()).toEqual([
      'DEFAULT_MAX_BODY_BYTES',
      'DEFAULT_RATE_LIMIT',
      'DEFAULT_WEBHOOK_TOLERANCE_SECONDS',
      'DEVELOPMENT_API_KEY',
      'EmulatorError',
      'FAULT_ROUTES',
      'Ledger',
      'MAX_LINKS',
      'PLANS',
      'TIMING_PRESETS',
      'TIMING_PRESET_VALUES',
      'UNPRICED_IMAGE_WORD_COST',
      'WORDS_ANALYSED',
      'WebhookVerificationError',
      'generateWebhookSecret',
      'hashArticleRequest',
      'hashParsedRequest',
      'loadDomainsFile',
      'loadEmulatorConfig',
      'signWebhook',
      'startEmulator',
      'verifyWebhook',
      'writeArticle',
    ]);
  });

  it('should start on 127.0.0.1 with an ephemeral port and the development key by default', async () => {
    const running = await emulator.startEmulator();
    try {
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(running.url).not.toMatch(/:4010$/);
      expect(running.apiKey).toBe(emulator.DEVELOPMENT_API_KEY);
    } finally {
      await running.stop();
    }
  });

  it('should stop twice without error and refuse connections afterwards', async () => {
    const running = await emulator.startEmulator();
    await running.stop();
    await running.stop();
    await expect(fetch(`${running.url}/_emulator/health`)).rejects.toThrow();
  });
});
