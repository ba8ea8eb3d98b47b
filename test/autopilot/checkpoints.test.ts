// Autopilot's checkpoints: one at a time, asks made during one coalesce into the next, and each ask resolves only after a checkpoint that started after it.
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/autopilot/checkpoints.js';
import type { RunBranch } from '../../src/autopilot/run-branch.js';

/** A branch whose checkpoints finish only when the test says so. */
function heldBranch() {
  const started: { finish: () => void; fail: (error: Error) => void }[] = [];
  const branch: RunBranch = {
    startedFrom: 'branch',
    checkpoint: () => new Promise<boolean>((resolve, reject) => started.push({ finish: () => resolve(true), fail: reject })),
    changedInRun: () => true,
    unmerged: async () => undefined,
  };
  return { branch, started };
}

const settled = async (): Promise<void> => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('Checkpoints', () => {
  it('should run one checkpoint at a time and serve every ask made during it with one more', async () => {
    const { branch, started } = heldBranch();
    const lines: string[] = [];
    const checkpoints = new Checkpoints(branch, (message) => lines.push(message));
    const done: string[] = [];
    const first = checkpoints.ask('a').then(() => done.push('a'));
    const second = checkpoints.ask('b').then(() => done.push('b'));
    const third = checkpoints.ask('c').then(() => done.push('c'));
    await settled();
    expect(started).toHaveLength(1);
    started[0]!.finish();
    await first;
    await settled();
    expect(done).toEqual(['a']);
    expect(started).toHaveLength(2);
    started[1]!.finish();
    await Promise.all([second, third]);
    expect(done).toEqual(['a', 'b', 'c']);
    expect(started).toHaveLength(2);
    expect(lines).toEqual(['a', 'b']);
    expect(checkpoints.count).toBe(2);
  });

  it('should reject the asks a failed checkpoint served, and start the next one afresh', async () => {
    const { branch, started } = heldBranch();
    const checkpoints = new Checkpoints(branch, () => undefined);
    const first = checkpoints.ask('a');
    started[0]!.fail(new Error('push refused'));
    await expect(first).rejects.toThrow('push refused');
    await settled();
    const next = checkpoints.ask('b');
    expect(started).toHaveLength(2);
    started[1]!.finish();
    await expect(next).resolves.toBeUndefined();
  });
});
