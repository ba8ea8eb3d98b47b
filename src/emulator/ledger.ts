// The billing ledger: every article created and every internal-link request charged, for "paid once" proofs.

export interface LedgerCreation {
  articleId: string;
  /** Account name (never its key). */
  account: string;
  /** SHA-256 of the canonical parsed request (see `hashArticleRequest`). */
  requestHash: string;
  targetKeyword: string;
  /** Unix ms of the creation. */
  at: number;
  /** Words of the article's text (output.html); for the model writer, reserved while pending and the words written once finished. */
  words: number;
  /** Generated images and the words they cost (per image by image model). */
  images: number;
  imageWords: number;
  /** `failed` articles are not billed: their words go back to the balance. */
  outcome: 'pending' | 'finished' | 'failed';
}

export interface LedgerLinkCharge {
  account: string;
  domainId: string;
  format: string;
  at: number;
  credits: number;
  links: number;
}

export interface LedgerTotals {
  creations: number;
  failed: number;
  /** Text words billed (failed articles excluded). */
  words: number;
  imageWords: number;
  /** words + imageWords */
  billedWords: number;
  linkRequests: number;
  linkCredits: number;
}

export interface LedgerDuplicate {
  requestHash: string;
  targetKeyword: string;
  articleIds: string[];
}

export interface LedgerSnapshot {
  creations: LedgerCreation[];
  linkCharges: LedgerLinkCharge[];
}

/** Append-only record of what was charged. Tests read it to prove no article was paid twice. */
export class Ledger {
  readonly #creations: LedgerCreation[] = [];
  readonly #linkCharges: LedgerLinkCharge[] = [];
  // Each create asks for its account's balance and each settle finds its creation: indexes keep both constant-time,
  // where scanning every creation made a 100,000-article site quadratic.
  readonly #byId = new Map<string, LedgerCreation>();
  readonly #spent = new Map<string, { words: number; credits: number }>();
  #onChange: () => void = () => {};

  /** Every article created, in order. */
  get creations(): readonly LedgerCreation[] {
    return this.#creations;
  }

  /** Every internal-link request charged, in order. */
  get linkCharges(): readonly LedgerLinkCharge[] {
    return this.#linkCharges;
  }

  /** Credits spent on internal links. */
  get linkCredits(): number {
    return this.#linkCharges.reduce((sum, charge) => sum + charge.credits, 0);
  }

  creationsFor(requestHash: string): LedgerCreation[] {
    return this.#creations.filter((creation) => creation.requestHash === requestHash);
  }

  creationsForKeyword(targetKeyword: string): LedgerCreation[] {
    return this.#creations.filter((creation) => creation.targetKeyword === targetKeyword);
  }

  /** Requests that were created (and paid) more than once. */
  duplicates(): LedgerDuplicate[] {
    const byHash = new Map<string, LedgerCreation[]>();
    for (const creation of this.#creations) {
      const list = byHash.get(creation.requestHash) ?? [];
      list.push(creation);
      byHash.set(creation.requestHash, list);
    }
    return [...byHash.values()]
      .filter((list) => list.length > 1)
      .map((list) => ({ requestHash: list[0]?.requestHash ?? '', targetKeyword: list[0]?.targetKeyword ?? '', articleIds: list.map((c) => c.articleId) }));
  }

  get totals(): LedgerTotals {
    return this.totalsFor(undefined);
  }

  /** Totals of one account, or of all accounts when `account` is undefined. */
  totalsFor(account: string | undefined): LedgerTotals {
    const creations = this.#creations.filter((c) => account === undefined || c.account === account);
    const billed = creations.filter((c) => c.outcome !== 'failed');
    const charges = this.#linkCharges.filter((c) => account === undefined || c.account === account);
    const words = billed.reduce((sum, c) => sum + c.words, 0);
    const imageWords = billed.reduce((sum, c) => sum + c.imageWords, 0);
    return {
      creations: creations.length,
      failed: creations.length - billed.length,
      words,
      imageWords,
      billedWords: words + imageWords,
      linkRequests: charges.length,
      linkCredits: charges.reduce((sum, c) => sum + c.credits, 0),
    };
  }

  /** Words an account has been billed (reserved at creation, returned if the article fails). */
  wordsSpentBy(account: string): number {
    return this.#spent.get(account)?.words ?? 0;
  }

  creditsSpentBy(account: string): number {
    return this.#spent.get(account)?.credits ?? 0;
  }

  #spentBy(account: string): { words: number; credits: number } {
    let spent = this.#spent.get(account);
    if (spent === undefined) this.#spent.set(account, (spent = { words: 0, credits: 0 }));
    return spent;
  }

  #add(creation: LedgerCreation): void {
    this.#creations.push(creation);
    this.#byId.set(creation.articleId, creation);
    if (creation.outcome !== 'failed') this.#spentBy(creation.account).words += creation.words + creation.imageWords;
  }

  #addCharge(charge: LedgerLinkCharge): void {
    this.#linkCharges.push(charge);
    this.#spentBy(charge.account).credits += charge.credits;
  }

  recordCreation(creation: LedgerCreation): void {
    this.#add(creation);
    this.#onChange();
  }

  /** Settle a pending creation; `words` replaces the words reserved at creation by the words written (the model writer). */
  settleCreation(articleId: string, outcome: 'finished' | 'failed', words?: number): void {
    const creation = this.#byId.get(articleId);
    if (creation !== undefined && creation.outcome === 'pending') {
      const spent = this.#spentBy(creation.account);
      spent.words -= creation.words + creation.imageWords;
      creation.outcome = outcome;
      if (outcome === 'finished' && words !== undefined) creation.words = words;
      if (outcome === 'finished') spent.words += creation.words + creation.imageWords;
      this.#onChange();
    }
  }

  recordLinkCharge(charge: LedgerLinkCharge): void {
    this.#addCharge(charge);
    this.#onChange();
  }

  /** @internal state-file plumbing */
  onChange(listener: () => void): void {
    this.#onChange = listener;
  }

  /** @internal */
  restore(snapshot: LedgerSnapshot): void {
    this.#empty();
    for (const creation of snapshot.creations) this.#add({ ...creation });
    for (const charge of snapshot.linkCharges) this.#addCharge({ ...charge });
  }

  /** @internal */
  clear(): void {
    this.#empty();
    this.#onChange();
  }

  #empty(): void {
    this.#creations.length = 0;
    this.#linkCharges.length = 0;
    this.#byId.clear();
    this.#spent.clear();
  }

  toJSON(): LedgerSnapshot & { totals: LedgerTotals } {
    return { creations: this.#creations.map((c) => ({ ...c })), linkCharges: this.#linkCharges.map((c) => ({ ...c })), totals: this.totals };
  }
}
