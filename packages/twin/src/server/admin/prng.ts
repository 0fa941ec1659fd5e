// A seeded pseudo-random source (mulberry32) for API faults, so a given seed and request sequence
// always injects the same errors: tests and benchmarks can rely on exact counts.

export type Random = () => number;

/** FNV-1a over the UTF-16 code units: turns a scenario name into a 32-bit seed. */
export function hashSeed(seed: string | number): number {
  if (typeof seed === 'number') return seed >>> 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast and well distributed enough for fault rates; returns values in [0, 1). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seededRandom(seed: string | number): Random {
  return mulberry32(hashSeed(seed));
}
