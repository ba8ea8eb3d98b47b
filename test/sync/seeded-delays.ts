// A tiny seeded generator for reproducible kill moments in the crash tests.

/** Park–Miller minimal standard generator: the same seed gives the same sequence in [0, 1). */
export function createSeededRandom(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 16807) % 2147483647;
    return (state - 1) / 2147483646;
  };
}
