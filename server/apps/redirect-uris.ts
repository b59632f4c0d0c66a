import type { Environment } from "@/db/schema";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

// Which redirect URIs may be registered (docs/oauth.md#authorization-page): https, custom schemes
// (carlocator://…) and loopback http in both environments; other http only in the sandbox. A
// fragment is allowed, unlike RFC 6749 §3.1.2, because the original service's single-page apps
// registered `http://host/#/authorized`; such a URI serves the implicit grant only (the
// authorization request refuses the code grant for it). Matching stays an exact string comparison.
export function redirectUriProblem(uri: string, environment: Environment): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return "Must be an absolute URI.";
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (scheme === "https") return null;
  if (scheme === "http") {
    if (LOOPBACK_HOSTS.has(url.hostname)) return null;
    return environment === "sandbox" ? null : "Plain http is only allowed for loopback addresses in production.";
  }
  if (["javascript", "data", "file", "vbscript", "blob", "about"].includes(scheme))
    return `The ${scheme}: scheme is not allowed.`;
  return /^[a-z][a-z0-9+.-]*$/.test(scheme) ? null : "Must have a valid scheme.";
}

/** An app's URIs must be acceptable in the sandbox; production use is checked per request. */
export function assertRedirectUris(uris: string[]): void {
  for (const uri of uris) {
    const problem = redirectUriProblem(uri, "sandbox");
    if (problem) throw new Error(`Redirect URI ${uri}: ${problem}`);
  }
}
