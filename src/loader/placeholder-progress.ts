// Which progress of an article being written is worth a new placeholder entry: every store write reloads the dev server's pages.

/** The progress a placeholder shows in steps of this size (a quarter); the toolbar panel shows every poll. */
export const PLACEHOLDER_STEP = 0.25;

/** What a pending article's placeholder shows. */
export interface PlaceholderState {
  status: 'queued' | 'processing';
  statusDetail: string | null;
  progress: number;
}

const step = (progress: number): number => Math.floor(Math.min(1, Math.max(0, progress)) / PLACEHOLDER_STEP);

/**
 * Remembers what each pending article's placeholder shows, so a poll that only moves its progress
 * a little (a new section, 45% → 52%) leaves the store, and the pages, alone. A placeholder is
 * written when its status changes (queued → processing) or its progress enters another step.
 */
export class PlaceholderProgress {
  readonly #shown = new Map<string, PlaceholderState>();

  /** The state to write for a progress report, or undefined when the placeholder already shows this status and step. */
  next(slug: string, report: PlaceholderState): PlaceholderState | undefined {
    const shown = this.#shown.get(slug);
    if (shown !== undefined && shown.status === report.status && step(shown.progress) === step(report.progress)) return undefined;
    this.#shown.set(slug, report);
    return report;
  }

  /** What the placeholder shows now (queued at 0% when new): a new pass writes it again as it is, not back at 0%. */
  shown(slug: string): PlaceholderState {
    let shown = this.#shown.get(slug);
    if (shown === undefined) {
      shown = { status: 'queued', statusDetail: null, progress: 0 };
      this.#shown.set(slug, shown);
    }
    return shown;
  }

  /** The article finished or failed: its placeholder is gone. */
  forget(slug: string): void {
    this.#shown.delete(slug);
  }
}
