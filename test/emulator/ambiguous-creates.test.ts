// Ambiguous creates: the emulator creates and bills the article, then answers as if it had not (500, reset, broken JSON).
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { AMBIGUOUS_KINDS } from '../../src/emulator/faults.js';

const KEY = 'ambiguous-test-key-1234';

/** One raw POST of a create: what came back, or that the connection dropped. */
function rawCreate(emulator: RunningEmulator, body: object, headers: Record<string, string> = {}): Promise<{ status: number; body: string } | 'reset'> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const url = new URL('/api/articles/', emulator.url);
    const req = httpRequest(url, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', () => resolve('reset'));
    });
    req.on('error', () => resolve('reset'));
    req.end(payload);
  });
}

function kindOf(answer: { status: number; body: string } | 'reset'): string {
  if (answer === 'reset') return 'reset';
  if (answer.status === 500) return 'server_error';
  try {
    JSON.parse(answer.body);
    return 'ok';
  } catch {
    return answer.body.trimEnd().endsWith(',}') ? 'invalid_json' : 'truncated_json';
  }
}

describe('ambiguous creates', () => {
  let emulator: RunningEmulator;

  afterEach(async () => {
    await emulator?.stop();
  });

  for (const kind of AMBIGUOUS_KINDS) {
    it(`should bill the article and record it in the ledger, then answer ${kind}`, async () => {
      emulator = await startEmulator({ timing: 'instant', accounts: [{ apiKey: KEY }], faults: { ambiguousCreates: { share: 1, kinds: [kind] } } });
      const answer = await rawCreate(emulator, { targetKeyword: `ambiguous ${kind}` });
      expect(kindOf(answer)).toBe(kind);
      const created = emulator.ledger.creationsForKeyword(`ambiguous ${kind}`);
      expect(created).toHaveLength(1);
      expect(created[0]!.articleId).toMatch(/^[0-9a-f-]{36}$/);
      await emulator.settle();
      expect(emulator.ledger.totals.billedWords).toBeGreaterThan(0);
      expect(emulator.requests.at(-1)?.fault).toBe(kind === 'reset' ? 'reset_after_processing' : kind === 'server_error' ? 'server_error_after_processing' : kind);
    });
  }

  it('should draw the same kinds for the same seed, and answer normally with a share of 0', async () => {
    const run = async (seed: number, share: number): Promise<string[]> => {
      emulator = await startEmulator({ timing: 'instant', seed, accounts: [{ apiKey: KEY }], faults: { ambiguousCreates: share } });
      const kinds: string[] = [];
      for (let i = 0; i < 12; i += 1) kinds.push(kindOf(await rawCreate(emulator, { targetKeyword: `seeded ${i}` })));
      await emulator.stop();
      return kinds;
    };
    const first = await run(7, 0.5);
    expect(await run(7, 0.5)).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(1);
    expect(await run(7, 0)).toEqual(Array(12).fill('ok'));
  });

  it('should give the same id without a second charge when the create is retried with its Idempotency-Key', async () => {
    emulator = await startEmulator({ timing: 'instant', accounts: [{ apiKey: KEY }], faults: { ambiguousCreates: { share: 1, kinds: ['server_error'] } } });
    const headers = { 'idempotency-key': 'retry-after-ambiguous-1' };
    expect(kindOf(await rawCreate(emulator, { targetKeyword: 'retried' }, headers))).toBe('server_error');
    emulator.setFaults(undefined);
    const retried = await rawCreate(emulator, { targetKeyword: 'retried' }, headers);
    expect(retried).not.toBe('reset');
    const { articleId } = JSON.parse((retried as { body: string }).body) as { articleId: string };
    expect(emulator.ledger.creationsForKeyword('retried').map((c) => c.articleId)).toEqual([articleId]);
    expect(emulator.ledger.duplicates()).toEqual([]);
  });

  it('should refuse a share out of range or an unknown kind with a message naming the option', async () => {
    await expect(startEmulator({ faults: { ambiguousCreates: 2 } })).rejects.toThrow(/ambiguousCreates/);
    await expect(startEmulator({ faults: { ambiguousCreates: { share: 0.1, kinds: ['teapot' as never] } } })).rejects.toThrow(/ambiguousCreates\.kinds must list some of server_error, reset, truncated_json, invalid_json, not teapot/);
  });
});
