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
  if (Number(oh) > 14 || Number(om) > 59) return null;
  const offsetMinutes = (Number(oh) * 60 + Number(om)) * (sign === "-" ? -1 : 1);
  return instantOf(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), 0, offsetMinutes);
}

/**
 * Every instant the service takes in, from any surface: years 1000 to 9999 in UTC, the offset
 * applied. PostgreSQL and JavaScript's Date hold far more, but the wire writes four-digit years,
 * and drizzle reads a timestamptz back through Date's parser of PostgreSQL's text, which reads
 * the years 0000–0099 as 1950–2049 ("0050-01-01 00:00:00+00" is 1950): outside 0100–9999 a time
 * would not come back as it went in. From 1000 on, every year has four significant digits.
 */
const DATE_TIME_RANGE = { min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) };

/** The message of a DateTime field that does not parse or is out of range. */
export const DATE_TIME_MESSAGE = "Must be a DateTime like 20141112T195503+0000, from year 1000 to 9999 in UTC.";

/**
 * An <input type="datetime-local"> value ("2014-11-12T19:55", seconds and a fraction optional),
 * read as UTC, in the same range as the wire DateTime; null otherwise.
 */
export function parseLocalDateTime(text: string): Date | null {
  const m = localPattern.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = "0", fraction = ""] = m as unknown as string[];
  const ms = Number(fraction.slice(0, 3).padEnd(3, "0"));
  const at = instantOf(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s), ms, 0);
  return at === null ? null : new Date(at);
}

/** The message of a datetime-local field that does not parse or is out of range. */
export const LOCAL_DATE_TIME_MESSAGE = "Give a date and time (UTC), from year 1000 to 9999.";

const localPattern = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

function instantOf(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
  offsetMinutes: number,
): number | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  // Reject days the month does not have (e.g. Feb 30), which Date.UTC would roll over.
  if (day > daysInMonth(year, month)) return null;
  const at = utcMs(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return at < DATE_TIME_RANGE.min || at > DATE_TIME_RANGE.max ? null : at;
}

// Date.UTC reads the years 0–99 as 1900–1999; setUTCFullYear takes a year as it is.
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number) {
  if (year >= 100) return Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.setUTCHours(hour, minute, second, ms);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
