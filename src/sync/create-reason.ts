// Why an article is created, and the one line that says it: no zod and no request schema, so the run rules load light.
import type { RequestChange } from './canonical-request.js';
import type { LockEntryError } from './lock-file.js';

export type CreateReason =
  | { kind: 'new' }
  /** `changes` is empty when the lock entry does not record the earlier request. */
  | { kind: 'changed'; changes: RequestChange[]; fromHash: string }
  | { kind: 'retry-failed'; error: LockEntryError | undefined }
  | { kind: 'retry-unknown'; error: LockEntryError | undefined }
  /** The lock entry was written by the offline emulator (placeholder text) and this sync talks to the real service. */
  | { kind: 'emulator' }
  /** Asked for by name (`regenerate`): a new, paid article for a finished one, which is served until the new one is finished. */
  | { kind: 'regenerate' }
  /** Due for a refresh (`sync --refresh`, `regenerate --due`): the served article is `age` old, its entry's `refreshAfter` is `refreshAfter`. */
  | { kind: 'refresh'; age: string; refreshAfter: string };

function formatValue(value: unknown): string {
  return value === undefined ? '(unset)' : JSON.stringify(value);
}

/** One line saying why an article is created: "new", "articleLength: "default" → "long"", … */
export function describeCreateReason(reason: CreateReason): string {
  switch (reason.kind) {
    case 'new':
      return 'new entry';
    case 'changed':
      if (reason.changes.length === 0) return 'request changed (the lock file does not record the earlier request)';
      return `changed: ${reason.changes
        .slice(0, 5)
        .map((change) => `${change.path} ${formatValue(change.from)} → ${formatValue(change.to)}`)
        .join(', ')}${reason.changes.length > 5 ? `, and ${reason.changes.length - 5} more` : ''}`;
    case 'retry-failed':
      return `retrying a failed article${reason.error === undefined ? '' : ` (${reason.error.code})`}`;
    case 'retry-unknown':
      return 'retrying a create whose outcome was unknown (same idempotency key)';
    case 'regenerate':
      return 'regenerating on request (a new article; the current one is served until it is finished)';
    case 'emulator':
      return 'written by the offline emulator: placeholder text, not a paid article';
    case 'refresh':
      return `refreshing: ${reason.age} old, refreshAfter ${reason.refreshAfter} (a new article; the current one is served until it is finished)`;
  }
}
