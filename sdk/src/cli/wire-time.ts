// The API's DateTime on the wire (yyyyMMdd'T'HHmmss±hhmm, whole seconds; docs/api.md#datetime), both ways,
// for the commands' query parameters and data sets.

/** A time as the API writes it, in UTC. */
export const toWire = (d: Date): string =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");

/** The API's DateTime as epoch milliseconds. */
export function fromWire(text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})([+-])(\d{2})(\d{2})$/.exec(text);
  if (!m) throw new Error(`unexpected timestamp ${text}`);
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  const offsetMs = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMs;
}
