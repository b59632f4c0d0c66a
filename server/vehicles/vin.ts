import { decodeVinModel } from "@/server/vehicles/vin-model";
import { STELLANTIS_BRANDS, STELLANTIS_SHARED_WMIS, WMI_MAKES, WMI_PREFIX_MAKES } from "@/server/vehicles/wmi";

// VIN rules of ISO 3779 and, for vehicles made for North America, 49 CFR 565 (FMVSS 115); China's
// GB 16735 follows the North American ones. Callers pass the VIN trimmed and uppercased.

const VIN_SHAPE = /^[A-HJ-NPR-Z0-9]{17}$/;

// ISO 3779 transliteration for the check digit: letters count by their place in A–I, J–R, S–Z
// (I, O and Q never appear).
const LETTER_VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

// Position 10 codes for model years 1980–2009; the cycle repeats every 30 years (A = 1980, 2010, 2040).
const YEAR_CODES = "ABCDEFGHJKLMNPRSTVWXY123456789";

// North America: WMIs 1–5, plus 7F–7Z and 70–79, which the US took on when it ran short of codes
// (vPIC lists 7SA Tesla, 7FC Rivian, 7UU Lucid and 71…/72… as US; 7A–7E are New Zealand's).
const NORTH_AMERICA = /^(?:[1-5]|7[F-Z0-9])/;
// China's GB 16735 requires the check digit and year code as well.
const CHINA = /^L/;

// Small manufacturers (under 1,000 vehicles a year) share a WMI ending in 9 and are told apart by
// positions 12–14, so a 2-character prefix says nothing about them.
const SMALL_MANUFACTURER = "9";

// Stellantis WMIs carry the brand at position 5 from this model year on.
const STELLANTIS_BRAND_FROM = 2011;

export type VinDecoded = { year: string | null; make: string | null; model: string | null };

/** The check digit (position 9) that the other 16 characters call for: "0"–"9" or "X". */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i += 1) {
    const char = vin.charAt(i);
    const value = char >= "0" && char <= "9" ? Number(char) : (LETTER_VALUES[char] ?? 0);
    sum += value * (WEIGHTS[i] ?? 0);
  }
  const remainder = sum % 11;
  return remainder === 10 ? "X" : String(remainder);
}

/** Null when the VIN is acceptable, else a short message for a field error. */
export function vinProblem(vin: string): string | null {
  if (vin.length !== 17) return "Must be 17 characters.";
  if (!VIN_SHAPE.test(vin)) return "Must use only digits and the letters A–Z except I, O and Q.";
  // Outside North America and China many genuine VINs carry neither a check digit nor a year code
  // (VW's "WVWZZZ…Z…", a 0 at position 10), so only those two are held to them.
  if (!NORTH_AMERICA.test(vin) && !CHINA.test(vin)) return null;
  if (vinCheckDigit(vin) !== vin.charAt(8)) {
    return "The check digit (9th character) does not match the rest of the VIN: look for a mistyped character.";
  }
  if (!YEAR_CODES.includes(vin.charAt(9))) return "The 10th character is not a model-year code.";
  return null;
}

function modelYear(vin: string, now: Date): number | null {
  const index = YEAR_CODES.indexOf(vin.charAt(9));
  if (index < 0) return null;
  const latest = now.getUTCFullYear() + 1;
  if (NORTH_AMERICA.test(vin)) {
    // 49 CFR 565.15: a letter at position 7 marks 2010–2039, a digit 1980–2009. Older VINs did not
    // always follow it, so a year that lies ahead falls back to the rule below.
    const fromPosition7 = (/[A-Z]/.test(vin.charAt(6)) ? 2010 : 1980) + index;
    if (fromPosition7 <= latest) return fromPosition7;
  }
  let year = 1980 + index;
  while (year + 30 <= latest) year += 30;
  return year;
}

function makeFor(vin: string, year: number | null): string | null {
  const wmi = vin.slice(0, 3);
  if (Object.hasOwn(STELLANTIS_SHARED_WMIS, wmi)) {
    if (year !== null && year >= STELLANTIS_BRAND_FROM) return STELLANTIS_BRANDS[vin.charAt(4)] ?? null;
    return STELLANTIS_SHARED_WMIS[wmi] ?? null;
  }
  const exact = WMI_MAKES[wmi];
  if (exact !== undefined) return exact;
  if (wmi.charAt(2) === SMALL_MANUFACTURER) return null;
  return WMI_PREFIX_MAKES[wmi.slice(0, 2)] ?? null;
}

/**
 * What the VIN tells offline: the model year from position 10, the make from the WMI, and the model
 * from vPIC's VIN patterns (server/vehicles/vin-model.ts) where the make is known. A WMI that a
 * group shares (Toyota's 5TD with some Lexus models, Nissan's JN1 with Infiniti) names the make it
 * mostly carries; the model's own make in vPIC, when it is another, is the better answer.
 */
export function decodeVin(vin: string, now: Date = new Date()): VinDecoded {
  if (!VIN_SHAPE.test(vin)) return { year: null, make: null, model: null };
  const year = modelYear(vin, now);
  const make = makeFor(vin, year);
  const found = make !== null && year !== null ? decodeVinModel(vin, year) : null;
  // vPIC spells a few makes in capitals (SAAB, RIVIAN): ours stays when only the case differs.
  const otherMake = found && found.make && found.make.toLowerCase() !== make!.toLowerCase() ? found.make : null;
  return { year: year === null ? null : String(year), make: otherMake ?? make, model: found?.model ?? null };
}
