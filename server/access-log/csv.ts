// CSV (RFC 4180) for the access log's download and the data export: every field quoted when it
// needs to be, and text that a spreadsheet would run as a formula prefixed with an apostrophe,
// since app names are chosen by partners and data values by devices.

/**
 * Where a spreadsheet could start a cell that runs: before =, +, -, @, tab or CR at the start of
 * the field, and after each ";", tab, CR or LF in it (spaces between allowed). A spreadsheet that
 * splits on ";" or tab does not see our commas or quotes, so "a;=1+1" there is a cell "=1+1", and a
 * line break inside quotes starts a new row. An apostrophe goes at each such place. One pattern for
 * JavaScript and PostgreSQL (the export's data points are written by SQL, point-batches.ts): both
 * read it alike.
 */
export const FORMULA_START = String.raw`(?<=(?:^|[;\t\r\n]) *)(?=[-=+@\t\r])`;

const formulaStart = new RegExp(FORMULA_START, "g");

function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = value.replace(formulaStart, "'");
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(fields: (string | number | null)[]): string {
  return fields.map(csvField).join(",") + "\r\n";
}
