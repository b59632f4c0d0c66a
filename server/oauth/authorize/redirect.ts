// Where the driver's browser goes back to (docs/oauth.md#authorization-page): the parameters are
// appended to the registered redirect URI as a query string (joined with "&" when it already has
// a "?"), or put in the fragment with response_mode=fragment. A registered URI with a fragment
// (only usable with the implicit grant) gets them inside its fragment, after a "?" (or "&" when
// the fragment already has one): `#/authorized?access_token=…`, where the original service's
// single-page apps read them. Only the implicit grant's answers go there (request.ts refuses the
// code grant for such a URI).

export type ResponseMode = "query" | "fragment";

export function clientRedirect(
  redirectUri: string,
  params: Record<string, string | null | undefined>,
  mode: ResponseMode,
): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== null && value !== undefined) search.set(name, value);
  const hash = redirectUri.indexOf("#");
  if (hash >= 0) return `${redirectUri}${joiner(redirectUri.slice(hash + 1))}${search}`;
  if (mode === "fragment") return `${redirectUri}#${search}`;
  return `${redirectUri}${joiner(redirectUri)}${search}`;
}

/** "?" to start a query, "&" to add to one, nothing after a trailing "?" or "&". */
function joiner(uri: string): string {
  if (!uri.includes("?")) return "?";
  return uri.endsWith("?") || uri.endsWith("&") ? "" : "&";
}

/** The URI up to its fragment, for the library, which refuses fragments. */
export function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash >= 0 ? uri.slice(0, hash) : uri;
}
