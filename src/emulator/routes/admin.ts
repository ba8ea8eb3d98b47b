// The emulator's own routes under /_emulator/: the caller's ledger and a health check.
import type { Account } from '../accounts.js';
import { json, type Answer } from '../answer.js';
import { finiteOrNull, remainingCredits, remainingWords } from '../balances.js';
import type { EmulatorContext } from '../context.js';

/** GET /_emulator/ledger: the calling account's totals, balance, creations, link charges and duplicates. */
export function ledgerRoute(ctx: EmulatorContext, account: Account): Answer {
  const { ledger, articles } = ctx;
  const totals = ledger.totalsFor(account.name);
  return json(200, {
    account: account.name,
    totals,
    balance: { words: finiteOrNull(remainingWords(ledger, account)), credits: finiteOrNull(remainingCredits(ledger, account)) },
    creations: ledger.creations.filter((c) => c.account === account.name),
    linkCharges: ledger.linkCharges.filter((c) => c.account === account.name),
    duplicates: ledger.duplicates().filter((d) => d.articleIds.some((id) => articles.get(id)?.account === account.name)),
  });
}

/** GET /_emulator/health (no key needed). */
export function health(): Answer {
  return json(200, { status: 'ok' });
}
