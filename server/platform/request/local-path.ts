// Where the driver site may send someone after signing in: a path on this site only. "//host" and
// "/\host" are other sites to a browser, and a full URL could be anywhere: never an open redirect.
export function localPathOr(candidate: string | string[] | undefined, fallback: string): string {
  const value = Array.isArray(candidate) ? candidate[0] : candidate;
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (/[\u0000-\u001f\\]/.test(value) || value.length > 2000) return fallback;
  return value;
}
