// A pass's budget: the loader option `budget` when given, else the manifest's `budget.perRun`, else the default; and the manifest's `budget.perMonth` reaches the engine.
import { describe, expect, it } from 'vitest';
import { resolveLoaderOptions } from '../../src/loader/options.js';
import { runBudget } from '../../src/loader/pass-context.js';
import { DEFAULT_BUDGET } from '../../src/sync/index.js';

describe('runBudget', () => {
  it('should take the manifest\'s perRun when the budget option is not given', () => {
    const options = resolveLoaderOptions({}, {});
    expect(options.budgetGiven).toBe(false);
    expect(runBudget(options, { perRun: 5, perMonth: 20 })).toBe(5);
    expect(runBudget(options, { perMonth: 20 })).toBe(DEFAULT_BUDGET);
    expect(runBudget(options, undefined)).toBe(DEFAULT_BUDGET);
  });

  it('should let the budget option win over the manifest, even when it is the default value', () => {
    const options = resolveLoaderOptions({ budget: DEFAULT_BUDGET }, {});
    expect(options.budgetGiven).toBe(true);
    expect(runBudget(options, { perRun: 5 })).toBe(DEFAULT_BUDGET);
    expect(runBudget(resolveLoaderOptions({ budget: 2 }, {}), { perRun: 5 })).toBe(2);
  });
});
