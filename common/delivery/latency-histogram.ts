// Latency percentiles from a histogram (the delivery health rollup, docs/console.md#delivery-health).
// The bins have fixed log-scale bounds, so histograms of any buckets add up bin by bin, and a
// percentile read from their sum is within PERCENTILE_ERROR of the exact one (percentile_disc):
// the exact value lies in the bin found, and the estimate (the bin's geometric middle) is within
// √1.1 − 1 ≈ 4.9 % of every whole millisecond in it.

/**
 * Bin thresholds in ms: ceil(1.1^k), duplicates dropped, up to 2 min (past the 10 s request
 * timeout). Bin i holds latencies in [bounds[i-1], bounds[i]) (bin 0: below 1 ms, bin 109: 2 min
 * and more), as PostgreSQL's width_bucket(latency_ms, bounds) numbers them. The migration that
 * backfilled the rollup (0021_delivery_attempt_rollups_backfill.sql) has the same list.
 */
export const LATENCY_BIN_BOUNDS_MS = [
  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16, 18, 20, 22, 24, 26, 29, 31, 35, 38, 42, 46, 50, 55, 61, 67, 73, 81,
  89, 98, 107, 118, 130, 143, 157, 172, 190, 208, 229, 252, 277, 305, 335, 369, 406, 446, 491, 540, 594, 653, 718, 790,
  869, 956, 1052, 1157, 1272, 1400, 1539, 1693, 1863, 2049, 2254, 2479, 2727, 3000, 3299, 3629, 3992, 4391, 4831, 5314,
  5845, 6429, 7072, 7779, 8557, 9413, 10354, 11389, 12528, 13781, 15159, 16675, 18342, 20177, 22194, 24414, 26855,
  29540, 32494, 35744, 39318, 43250, 47575, 52332, 57566, 63322, 69654, 76620, 84281, 92710, 101980, 112178, 123396,
] as const;

/** What the page and the docs say about p50/p95 read from the histogram. */
export const PERCENTILE_ERROR = "within 5 %";

/** The bin of a latency: how many thresholds are ≤ it (PostgreSQL's width_bucket). */
export function latencyBin(ms: number): number {
  let lo: number = 0;
  let hi: number = LATENCY_BIN_BOUNDS_MS.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (LATENCY_BIN_BOUNDS_MS[mid]! <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The latency a bin stands for: 0 for bin 0, the lower bound for the open top bin, else the geometric middle of its whole milliseconds. */
export function binEstimate(bin: number): number {
  if (bin <= 0) return 0;
  const lo = LATENCY_BIN_BOUNDS_MS[bin - 1]!;
  if (bin >= LATENCY_BIN_BOUNDS_MS.length) return lo;
  return Math.round(Math.sqrt(lo * (LATENCY_BIN_BOUNDS_MS[bin]! - 1)));
}

/** The p-th percentile (0 < p ≤ 1) as percentile_disc defines it (the ⌈p·n⌉-th smallest), estimated from bin counts; null when empty. */
export function percentileOf(histogram: Map<string, number>, p: number): number | null {
  const bins = [...histogram]
    .map(([k, n]) => [Number(k), n] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => a[0] - b[0]);
  const total = bins.reduce((s, [, n]) => s + n, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(p * total));
  let seen = 0;
  for (const [bin, n] of bins) {
    seen += n;
    if (seen >= rank) return binEstimate(bin);
  }
  return binEstimate(bins[bins.length - 1]![0]);
}
