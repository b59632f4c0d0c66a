// CSV (RFC 4180) for the access log's download and the data export: every field quoted when it
// needs to be, and text that a spreadsheet would run as a formula (=, +, -, @ first) prefixed with
// an apostrophe, since app names are chosen by partners.

function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(fields: (string | number | null)[]): string {
  return fields.map(csvField).join(",") + "\r\n";
}
