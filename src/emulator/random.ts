// Seeded, position-addressable randomness: a record's values come from a hash of its coordinates, so
// the record at any position is computed directly, without generating the ones before it.

/** Mixes two 32-bit integers into a well-spread 32-bit unsigned integer (murmur3 finalizer). */
export function hash32(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export function hashString(seed: number, text: string): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) h = hash32(h, text.charCodeAt(i));
  return h;
}

/** A small fast generator (mulberry32) of floats in [0, 1). */
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}
