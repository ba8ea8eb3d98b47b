// What one autopilot run takes: dates within the lookahead earliest first, then new entries in manifest order, then due refreshes oldest first, within perRun and what the monthly cap leaves.
import { describe, expect, it } from 'vitest';
import { selectCreates } from '../../src/autopilot/selection.js';
import { emptyLockFile, planSync, type ArticleAge } from '../../src/sync/index.js';
import { specsFor } from '../sync/sync-harness.js';

const NOW = new Date('2026-11-20T09:00:00Z');
const HORIZON = new Date('2026-11-27T09:00:00Z');

function due(slug: string, since: string): ArticleAge {
  return { slug, since, ageMs: NOW.getTime() - Date.parse(since), refreshAfter: '30d', dueAt: since, state: 'due' };
}

/** Five new entries, two of them dated (one inside the lookahead, one beyond), one due refresh besides. */
function input(perRun: number, monthRoom: number, onEmulator = false) {
  const plan = planSync(specsFor(['new a', 'dated late', 'new b', 'dated soon', 'dated far']), emptyLockFile(), new Set());
  const dates = new Map([
    ['dated-late', new Date('2026-11-26T00:00:00Z')],
    ['dated-soon', new Date('2026-11-21T00:00:00Z')],
    ['dated-far', new Date('2027-01-01T00:00:00Z')],
  ]);
  const refreshes = [due('old-one', '2026-08-01T00:00:00Z'), due('older-one', '2026-09-01T00:00:00Z')];
  return { plan, dates, due: refreshes, horizon: HORIZON, perRun, monthRoom, onEmulator };
}

describe('selectCreates', () => {
  it('should order dates within the lookahead earliest first, then new entries in manifest order, then refreshes oldest first', () => {
    const selection = selectCreates(input(25, Number.POSITIVE_INFINITY));
    expect(selection.chosen.map((c) => `${c.kind}:${c.slug}`)).toEqual(['scheduled:dated-soon', 'scheduled:dated-late', 'new:new-a', 'new:new-b', 'refresh:old-one', 'refresh:older-one']);
    expect(selection.notYet.map((c) => c.slug)).toEqual(['dated-far']);
    expect(selection.later).toEqual([]);
  });

  it('should take what fits perRun and leave the rest, saying which cap held it', () => {
    const selection = selectCreates(input(3, Number.POSITIVE_INFINITY));
    expect(selection.chosen.map((c) => c.slug)).toEqual(['dated-soon', 'dated-late', 'new-a']);
    expect(selection.later.map((c) => [c.slug, c.heldBy])).toEqual([['new-b', 'perRun'], ['old-one', 'perRun'], ['older-one', 'perRun']]);
  });

  it('should take no more paid creates than the monthly cap leaves, however high perRun is', () => {
    const selection = selectCreates(input(25, 2));
    expect(selection.chosen.map((c) => c.slug)).toEqual(['dated-soon', 'dated-late']);
    expect(new Set(selection.later.map((c) => c.heldBy))).toEqual(new Set(['perMonth']));
    expect(selectCreates(input(25, 0)).chosen).toEqual([]);
  });

  it('should not hold the embedded emulator (nothing billed) to the monthly cap, only to perRun', () => {
    const selection = selectCreates(input(4, 0, true));
    expect(selection.chosen.map((c) => c.slug)).toEqual(['dated-soon', 'dated-late', 'new-a', 'new-b']);
    expect(selection.chosen.every((c) => !c.paid)).toBe(true);
    expect(selection.later.map((c) => c.heldBy)).toEqual(['perRun', 'perRun']);
  });
});
