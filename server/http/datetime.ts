// The wire DateTime: yyyyMMdd'T'HHmmss + numeric offset, e.g. 20141112T195503+0000 (contract §2).
// Output is always UTC "+0000"; input accepts any offset, and a "+" that arrived URL-decoded as a
// space in a query string.

const pattern = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})([+\- ])(\d{2}):?(\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function formatDateTime(date: Date): string;
export function formatDateTime(date: Date | null | undefined): string | null;
export function formatDateTime(date: Date | null | undefined): string | null {
  if (!date) return null;
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}+0000`
  );
}

export function parseDateTime(text: string): Date | null {
  const m = pattern.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m as unknown as string[];
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = (Number(oh) * 60 + Number(om)) * (sign === "-" ? -1 : 1);
  if (Number(oh) > 14 || Number(om) > 59) return null;
  const utc = Date.UTC(Number(y), month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
  const date = new Date(utc);
  // Reject dates that rolled over (e.g. Feb 30).
  const local = new Date(utc + offsetMinutes * 60_000);
  if (local.getUTCDate() !== day || local.getUTCMonth() !== month - 1) return null;
  return date;
}
