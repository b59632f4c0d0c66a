// Where the driver's browser goes back to (docs/oauth.md): the parameters are appended to the
// registered redirect URI as a query string (joined with "&" when it already has a "?"), or put
// in the fragment with response_mode=fragment. Registered URIs never carry a fragment.

export type ResponseMode = "query" | "fragment";

export function clientRedirect(redirectUri: string, params: Record<string, string | null | undefined>, mode: ResponseMode): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined) search.set(name, value);
  if (mode === "fragment") return `${redirectUri}#${search}`;
  const joiner = !redirectUri.includes("?") ? "?" : redirectUri.endsWith("?") || redirectUri.endsWith("&") ? "" : "&";
  return `${redirectUri}${joiner}${search}`;
}
