// Mileage is a decimal number of miles with at most three decimals (a thousandth of a mile is
// 1.6 m): numeric(11, 3) in the database, and in TypeScript the number nearest that decimal, which
// prints as the decimal itself (0.3, never 0.30000000000000004). Sums are taken in whole
// thousandths, which doubles hold exactly, so 0.1 + 0.2 is 0.3 (docs/decisions/0027-exact-mileage.md).

/** The most miles a vehicle may show: larger inputs are refused, larger device readings ignored. */
export const MAX_MILES = 10_000_000;

const PER_MILE = 1000;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal text in whole thousandths of a mile ("160854.7" → 160854700), rounded half away from
 * zero on the digits themselves (no float in between); null when it is not a plain decimal or is
 * beyond any mileage.
 */
function thousandthsOf(text: string): number | null {
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const [, sign, whole = "", fraction = ""] = match;
  if (whole.replace(/^0+/, "").length > 9) return null;
  const n =
    Number(whole) * PER_MILE + Number(fraction.slice(0, 3).padEnd(3, "0")) + ((fraction[3] ?? "0") >= "5" ? 1 : 0);
  return sign && n !== 0 ? -n : n;
}

const toThousandths = (miles: number) => Math.round(miles * PER_MILE);

/**
 * A device's GEN_ODOMETER or GEN_TRIP_MILEAGE (text, as received) in miles to the thousandth;
 * null when it is not a number of miles from 0 to MAX_MILES.
 */
export function milesOfReading(value: string): number | null {
  const n = thousandthsOf(value.trim());
  return n === null || n < 0 || n > MAX_MILES * PER_MILE ? null : n / PER_MILE;
}

/**
 * A number of miles from the API rounded to the thousandth, by the decimal the client wrote
 * (10.2545 → 10.255): a JSON number prints as its shortest decimal, which is what was sent.
 */
export function milesOfInput(miles: number): number {
  const n = thousandthsOf(String(miles)) ?? toThousandths(miles);
  return n / PER_MILE;
}

/** a + b, exactly, for mileages already to the thousandth. */
export function addMiles(a: number, b: number): number {
  return (toThousandths(a) + toThousandths(b)) / PER_MILE;
}

/**
 * A decimal text rounded half away from zero to a whole number, as text, exactly at any length
 * ("4.5" → "5", "160854.7" → "160855"); null when it is not a plain decimal.
 */
export function wholeMilesText(value: string): string | null {
  const match = DECIMAL.exec(value.trim());
  if (!match) return null;
  const [, sign, whole = "", fraction = ""] = match;
  const n = BigInt(whole) + ((fraction[0] ?? "0") >= "5" ? 1n : 0n);
  return sign && n !== 0n ? `-${n}` : String(n);
}
