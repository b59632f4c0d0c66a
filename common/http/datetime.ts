// The wire DateTime: yyyyMMdd'T'HHmmss + numeric offset, e.g. 20141112T195503+0000 (docs/api.md#datetime).
// Output is always UTC "+0000"; input accepts any offset, and a "+" that arrived URL-decoded as a
// space in a query string.

const pattern = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})([+\- ])(\d{2}):?(\d{2})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function formatDateTime(date: Date): string;
export function formatDateTime(date: Date | null | undefined): string | null;
export function formatDateTime(date: Date | null | undefined): string | null {
  if (!date) return null;
  // From toISOString (native, "2014-11-12T19:55:03.000Z"): ingest formats every data set and
  // data point it answers with, and this was a tenth of a batch's CPU built from getUTC* parts.
  const iso = date.toISOString();
  if (iso.length !== 24) return formatParts(date); // years outside 0000–9999
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}+0000`;
}

function formatParts(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}+0000`
  );
}

// A data set's points usually carry the set's own time: one body parses the same text four times
// or more. The last text parsed is remembered (as epoch ms: a Date is mutable, so each caller
// gets its own).
let lastText = "";
let lastMs: number | null = null;

export function parseDateTime(text: string): Date | null {
  if (text !== lastText) {
    lastMs = parseMs(text);
    lastText = text;
  }
  return lastMs === null ? null : new Date(lastMs);
}

function parseMs(text: string): number | null {
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
  const year = Number(y);
  // Reject days the month does not have (e.g. Feb 30), which Date.UTC would roll over.
  if (day > daysInMonth(year, month)) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
