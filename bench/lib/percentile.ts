/**
 * The p-th percentile of samples already sorted ascending: the sample at p % of the way through
 * (NaN when there are none). The benchmarks that keep every sample share it; bench:scale and
 * bench:reads take the nearest rank instead (one sample lower at an exact boundary).
 */
export const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
