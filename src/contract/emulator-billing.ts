// Articles the embedded emulator writes are never billed: the one rule every count of words billed applies (the queue the toolbar reads, `status`, a run's totals, the build log).

/** What says who wrote an article: a lock entry or its previous article (`emulator: true`), a status row, a run in offline mode. */
export interface WrittenBy {
  emulator?: boolean | undefined;
}

/**
 * Whether the service billed an article. An article the embedded emulator wrote (offline mode:
 * placeholder text, or the owner's own model) never reached the service, so nothing was billed
 * for it, whatever words its record holds; a sync against the real service creates it again, paid.
 */
export function billedByService(article: WrittenBy): boolean {
  return article.emulator !== true;
}
