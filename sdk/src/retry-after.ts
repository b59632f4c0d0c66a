/**
 * A Retry-After header (RFC 9110 §10.2.3: delay-seconds, or an HTTP-date) as seconds to wait from
 * `now`; null when absent or unreadable. The service sends seconds; a proxy or gateway in front of
 * it may send a date.
 */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
