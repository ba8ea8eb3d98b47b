// "Emulator articles are not billed": one predicate, applied by the queue, `status`, a run's totals and the build log.
import { describe, expect, it } from 'vitest';
import { billedByService } from '../../src/contract/emulator-billing.js';

describe('billedByService', () => {
  it('should bill an article unless the embedded emulator wrote it', () => {
    expect(billedByService({})).toBe(true);
    expect(billedByService({ emulator: false })).toBe(true);
    expect(billedByService({ emulator: undefined })).toBe(true);
    expect(billedByService({ emulator: true })).toBe(false);
  });
});
