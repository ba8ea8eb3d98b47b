import { describe, expect, it } from 'vitest';
import { PlaceholderProgress, type PlaceholderState } from '../../src/loader/placeholder-progress.js';

const processing = (progress: number, statusDetail = `at ${progress}`): PlaceholderState => ({ status: 'processing', statusDetail, progress });

describe('PlaceholderProgress', () => {
  it('should write a placeholder only when its status changes or its progress enters another quarter', () => {
    const steps = new PlaceholderProgress();
    expect(steps.shown('a')).toEqual({ status: 'queued', statusDetail: null, progress: 0 });
    const reports = [processing(0.02), processing(0.1), processing(0.2), processing(0.26), processing(0.4), processing(0.49), processing(0.5), processing(0.8), processing(0.99)];
    const written = reports.filter((report) => steps.next('a', report) !== undefined).map((report) => report.progress);
    expect(written).toEqual([0.02, 0.26, 0.5, 0.8]);
  });

  it('should write a status change even within the same quarter', () => {
    const steps = new PlaceholderProgress();
    expect(steps.next('a', { status: 'queued', statusDetail: 'Waiting for a writer', progress: 0 })).toBeDefined();
    expect(steps.next('a', { status: 'queued', statusDetail: 'Still waiting', progress: 0 })).toBeUndefined();
    expect(steps.next('a', processing(0.01))).toEqual(processing(0.01));
  });

  it('should keep what each article shows apart, and start again once an article is forgotten', () => {
    const steps = new PlaceholderProgress();
    steps.next('a', processing(0.3));
    expect(steps.next('b', processing(0.3))).toBeDefined();
    expect(steps.shown('a')).toEqual(processing(0.3));
    steps.forget('a');
    expect(steps.shown('a')).toEqual({ status: 'queued', statusDetail: null, progress: 0 });
  });
});
