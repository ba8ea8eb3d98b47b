// The spec's example client: create, then poll the status route every 5 seconds until finished or failed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';

const KEY = 'example-client-key';
/** The spec's 5 seconds, scaled down so the test runs in well under a second. */
const TIME_SCALE = 1 / 100;

interface StatusRecord {
  status: string;
  statusDetail: string;
  progress: number;
  output?: { html: string; polishedHtml: string | null };
}

/** Written the way the spec describes the example client, against plain fetch. */
async function exampleClient(baseUrl: string, apiKey: string, request: object, pollIntervalMs = 5000): Promise<{ final: StatusRecord; seen: StatusRecord[] }> {
  const headers = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
  const created = await fetch(`${baseUrl}/api/articles/`, { method: 'POST', headers, body: JSON.stringify(request) });
  const { articleId } = (await created.json()) as { articleId: string };
  const seen: StatusRecord[] = [];
  for (;;) {
    const record = (await (await fetch(`${baseUrl}/api/articles/${articleId}`, { headers })).json()) as StatusRecord;
    seen.push(record);
    if (record.status === 'finished' || record.status === 'failed') return { final: record, seen };
    await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
  }
}

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ apiKey: KEY, timing: { queueDelayMs: 20, writingMs: 300 } });
});
afterAll(() => emulator.stop());

describe('the spec example client', () => {
  it('should create, poll every (scaled) 5 seconds until finished, and read output.html', async () => {
    const { final, seen } = await exampleClient(emulator.url, KEY, { targetKeyword: 'sourdough starter' }, 5000 * TIME_SCALE);
    expect(final.status).toBe('finished');
    expect(final.output?.html).toMatch(/<h1\b[^>]*>/);
    expect(seen.slice(0, -1).every((record) => record.output === undefined)).toBe(true);
    expect(seen.length).toBeGreaterThan(1);
    expect(emulator.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});
