// Records kept in a lock entry: its billing figures, the earlier finished article it may carry, and its approval.
import type { BilledWords } from './billed-words.js';
import type { LockEntry, PreviousArticle } from './lock-file.js';

/** The billing record of an entry or a previous article, as far as it was recorded. */
export function billedOf(record: Partial<BilledWords>): Partial<BilledWords> {
  return {
    ...(record.words === undefined ? {} : { words: record.words }),
    ...(record.images === undefined ? {} : { images: record.images }),
    ...(record.imageWords === undefined ? {} : { imageWords: record.imageWords }),
  };
}

export function previousOf(entry: LockEntry | undefined): PreviousArticle | undefined {
  if (entry === undefined) return undefined;
  if (entry.status === 'finished' && entry.output !== undefined && entry.articleId !== undefined) {
    return {
      hash: entry.hash,
      articleId: entry.articleId,
      output: entry.output,
      ...(entry.finishedAt === undefined ? {} : { finishedAt: entry.finishedAt }),
      ...billedOf(entry),
      ...(entry.emulator === true ? { emulator: true as const } : {}),
    };
  }
  return entry.previous;
}


/**
 * The approval a rewritten entry keeps: it names the output it approved, so while the earlier article is served
 * (a regenerate being written, a restore) it still approves that one, and never the new output.
 */
export function approvalOf(entry: LockEntry | undefined): Pick<LockEntry, 'approved'> {
  return entry?.approved === undefined ? {} : { approved: entry.approved };
}
