// A small seeded pseudo-random generator, so every emulator decision can be replayed from a seed.
import { createHash } from 'node:crypto';

/** A deterministic source of numbers in [0, 1) with a few conveniences. */
export interface Random {
  /** The next number in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `share` (0..1). */
  chance(share: number): boolean;
  /** A new independent generator derived from this one's seed and a label. */
  fork(label: string): Random;
}

/**
 * sfc32 seeded through SHA-256: tiny, fast and well distributed. Not for cryptography; the
 * emulator only needs runs to be reproducible.
 */
export function createRandom(seed: string | number): Random {
  const seedText = String(seed);
  const digest = createHash('sha256').update(seedText).digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);

  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Warm up so that similar seeds diverge immediately.
  for (let i = 0; i < 12; i++) next();

  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
      return items[Math.floor(next() * items.length)] as T;
    },
    chance: (share) => share > 0 && next() < share,
    fork: (label) => createRandom(`${seedText}\u0000${label}`),
  };
  return random;
}
