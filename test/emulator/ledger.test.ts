import { describe, expect, it } from 'vitest';
import { Ledger, type LedgerCreation } from '../../src/emulator/ledger.js';

function creation(articleId: string, account: string, words: number, imageWords = 0): LedgerCreation {
  return { articleId, account, requestHash: `hash-${articleId}`, targetKeyword: articleId, at: 0, words, images: 0, imageWords, outcome: 'pending' };
}

describe('Ledger balances', () => {
  it('counts what each account spent as creations are recorded and settled', () => {
    const ledger = new Ledger();
    ledger.recordCreation(creation('a', 'one', 100, 20));
    ledger.recordCreation(creation('b', 'one', 50));
    ledger.recordCreation(creation('c', 'two', 70));
    ledger.recordLinkCharge({ account: 'one', domainId: 'd', format: 'json', at: 0, credits: 3, links: 1 });
    expect(ledger.wordsSpentBy('one')).toBe(170);
    expect(ledger.creditsSpentBy('one')).toBe(3);
    // A failed article's words go back; a finished one bills the words written.
    ledger.settleCreation('b', 'failed');
    ledger.settleCreation('a', 'finished', 80);
    expect(ledger.wordsSpentBy('one')).toBe(100);
    expect(ledger.wordsSpentBy('one')).toBe(ledger.totalsFor('one').billedWords);
    // Settling twice changes nothing.
    ledger.settleCreation('a', 'failed');
    expect(ledger.wordsSpentBy('one')).toBe(100);
    expect(ledger.wordsSpentBy('two')).toBe(70);
    expect(ledger.wordsSpentBy('nobody')).toBe(0);
  });

  it('restores and clears the balances with the creations', () => {
    const ledger = new Ledger();
    ledger.recordCreation(creation('a', 'one', 100));
    ledger.settleCreation('a', 'finished');
    const copy = new Ledger();
    copy.restore(JSON.parse(JSON.stringify(ledger.toJSON())));
    expect(copy.wordsSpentBy('one')).toBe(100);
    copy.settleCreation('a', 'failed');
    expect(copy.wordsSpentBy('one')).toBe(100);
    copy.clear();
    expect(copy.wordsSpentBy('one')).toBe(0);
    expect(copy.creations).toHaveLength(0);
  });
});
