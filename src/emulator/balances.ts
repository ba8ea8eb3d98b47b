// What an account has left: its configured words and internal-link credits minus what the ledger has spent.
import type { Account } from './accounts.js';
import type { Ledger } from './ledger.js';

/** Words left for articles (Infinity when unlimited). */
export function remainingWords(ledger: Ledger, account: Account): number {
  return account.words - ledger.wordsSpentBy(account.name);
}

/** Internal-link credits left (Infinity when unlimited). */
export function remainingCredits(ledger: Ledger, account: Account): number {
  return account.credits - ledger.creditsSpentBy(account.name);
}

/** A balance as JSON can carry it: null for unlimited. */
export function finiteOrNull(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
