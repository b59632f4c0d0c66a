// Which grants are due a "last used" stamp: at most one per grant and interval from this process.
// Pure (the clock is passed in) and bounded: past `limit` grants the longest-unstamped one is
// forgotten, which at worst costs it one more conditional UPDATE.

export type UseThrottle = { due(key: string, nowMs: number): boolean };

export function createUseThrottle({ intervalMs, limit }: { intervalMs: number; limit: number }): UseThrottle {
  const stamped = new Map<string, number>();
  return {
    due(key, nowMs) {
      const last = stamped.get(key);
      if (last !== undefined && nowMs - last < intervalMs) return false;
      // Re-inserted so the Map's order stays oldest stamp first.
      stamped.delete(key);
      stamped.set(key, nowMs);
      if (stamped.size > limit) stamped.delete(stamped.keys().next().value!);
      return true;
    },
  };
}
