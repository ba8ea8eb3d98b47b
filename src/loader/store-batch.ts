// Astro's data store written in one burst at the end of a pass. Astro saves its store 500 ms after the last `set`
// (a debounced write of every entry, HTML included: about 3.5 s at 10,000 articles). A pass that set entries as it
// read them, then spent more than that on its closing work (near-duplicates, the findings book) had that save run
// inside its load(), and a second one after it for the entries the near-duplicate pass set again: at 10,000 articles
// with records, load() took 16.5-19.9 s in a build against 5-8 s outside one (6.1 s batched). Batched, each entry is set once, and the
// save runs once, after load() returns.
//
// Astro sets its own meta when a sync starts, which schedules that save too, and a warm store is full when it does: the save
// serializes every entry (a CPU profile of a warm `astro sync` of 10,000 articles: 2.0 s of devalue and 1.8 s of collections,
// from the timer, inside load()). A pass longer than 500 ms that waited on a file after them had it run inside its load()
// (0.8 s became 3.5-4.6 s, in some builds and not others); by Astro's store code, a pass that then set an entry would have
// Astro save a second time.
// `holdingStoreSave` keeps it off until the pass ends: the store is then serialized once, when Astro waits for its save.
import type { LoaderContext } from 'astro/loaders';

type DataStore = LoaderContext['store'];
type DataEntry = ReturnType<DataStore['values']>[number];

/** A view of `real` that keeps its sets and deletes until `flush`; reads see them already. */
class BatchedStore {
  readonly #real: DataStore;
  readonly #set = new Map<string, DataEntry>();
  readonly #deleted = new Set<string>();

  constructor(real: DataStore) {
    this.#real = real;
  }

  get(id: string): DataEntry | undefined {
    if (this.#deleted.has(id)) return undefined;
    return this.#set.get(id) ?? this.#real.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** As Astro's store: false, and nothing kept, when the entry held has the same digest. */
  set(entry: DataEntry): boolean {
    const id = String(entry.id);
    if (entry.digest !== undefined && this.get(id)?.digest === entry.digest) return false;
    this.#deleted.delete(id);
    this.#set.set(id, entry);
    return true;
  }

  delete(id: string): void {
    this.#set.delete(id);
    this.#deleted.add(id);
  }

  keys(): string[] {
    return this.entries().map(([id]) => id);
  }

  values(): DataEntry[] {
    return this.entries().map(([, entry]) => entry);
  }

  entries(): [string, DataEntry][] {
    const held = this.#real.entries().filter(([id]) => !this.#deleted.has(id) && !this.#set.has(id));
    return [...held, ...this.#set];
  }

  clear(): void {
    for (const id of this.#real.keys()) this.#deleted.add(id);
    this.#set.clear();
  }

  /** Writes what was kept into the real store: the deletes, then each entry set, once. */
  flush(): void {
    for (const id of this.#deleted) this.#real.delete(id);
    for (const entry of this.#set.values()) this.#real.set(entry);
    this.#deleted.clear();
    this.#set.clear();
  }

  addModuleImport(fileName: string): void {
    this.#real.addModuleImport(fileName);
  }
}

/**
 * Runs `pass` with `context.store` batched, then writes the batch into the real store (also when the pass throws: what it
 * placed stays placed, as before) and puts the real store back.
 */
export async function withBatchedStore<T>(context: LoaderContext, pass: () => Promise<T>): Promise<T> {
  const real = context.store;
  const batch = new BatchedStore(real);
  context.store = batch as unknown as DataStore;
  try {
    return await pass();
  } finally {
    context.store = real;
    batch.flush();
  }
}

/** A meta key of the collection a pass sets again while it runs: each set of Astro's store starts its save's 500 ms over. */
const HOLD_KEY = 'pass-holds-save';
const HOLD_EVERY_MS = 200;

/**
 * Runs `pass` with Astro's debounced save of its store held off (see above), by setting `HOLD_KEY` every 200 ms until it
 * ends; the key is deleted then, so the store saved holds nothing of it.
 */
export async function holdingStoreSave<T>(context: LoaderContext, pass: () => Promise<T>): Promise<T> {
  const hold = () => context.meta.set(HOLD_KEY, '1');
  hold();
  const timer = setInterval(hold, HOLD_EVERY_MS);
  timer.unref();
  try {
    return await pass();
  } finally {
    clearInterval(timer);
    context.meta.delete(HOLD_KEY);
  }
}
