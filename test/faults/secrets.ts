// Fault 6: after the whole campaign, the API key and the webhook secret appear in no file written, no log line and no error.
import { describe, expect, it } from 'vitest';
import type { Campaign } from './campaign.js';

export function secretsScenario(campaign: Campaign): void {
  describe('fault 6: secrets after the whole campaign', () => {
    it('should find the API key and the webhook secret in no file, log line or error', async () => {
      const search = await campaign.searchSecrets();
      console.log(
        `[faults] secrets: searched ${search.files} files (${Math.round(search.bytes / 1024)} KiB) in ${campaign.dirs.length} temp dirs, ` +
          `${search.lines} log lines and ${search.errors} errors for the API key and the webhook secret: ${search.hits.length} hits`,
      );
      expect(search.hits).toEqual([]);
    });

    it('should have had something to search: files, log lines, errors and signed webhook deliveries', () => {
      // A search over nothing proves nothing: the campaign must have used both secrets for real.
      expect(campaign.dirs.length).toBeGreaterThan(0);
      expect(campaign.logs.length).toBeGreaterThan(100);
      expect(campaign.errors.length).toBeGreaterThan(10);
      expect(campaign.deliveries).toBeGreaterThan(0);
    });
  });
}
