// A small seeded PRNG (mulberry32): the same seed gives the same trip on every machine.

export type Random = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  chance(p: number): boolean;
};

export function seeded(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, between: (min, max) => min + (max - min) * next(), chance: (p) => next() < p };
}

/** A seed for runs started without one. */
export const randomSeed = () => Math.floor(Math.random() * 2_147_483_647);
