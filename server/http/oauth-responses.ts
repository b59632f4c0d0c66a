import { UNAVAILABLE_RETRY_SECONDS } from "@/common/http/errors";
import { databaseUnavailable } from "@/db/unavailable";
import { logger } from "@/server/platform/log";
import type { AuthorizationAnswer } from "@/server/oauth/authorize/answer";
import type { OAuthError } from "@/server/oauth/oauth-error";

// The answers of the OAuth endpoints and the authorization page, built here only
// (docs/architecture.md#the-request-path). None may be cached: they carry tokens and codes in
// their body or Location, or say what went wrong with them.

export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** A JSON answer of the token and revocation endpoints. */
export function oauthJson(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

// RFC 6749 §5.2 requires the challenge when the client tried HTTP Basic; it is sent for form
// credentials too, so every invalid_client says how to authenticate.
export function oauthErrorResponse({ status, error, description }: OAuthError): Response {
  const challenge: Record<string, string> =
    error === "invalid_client" ? { "WWW-Authenticate": 'Basic realm="wayline"' } : {};
  return oauthJson(status, { error, error_description: description }, challenge);
}

// Whatever the domain did not answer itself. The database out of reach (stopped, restarting): 503
// with RFC 6749's temporarily_unavailable and a time to retry after, as the API answers 500
// INTERNAL with Retry-After (docs/operations.md#a-database-restart). Anything else: 500 server_error.
export function oauthFailure(error: unknown): Response {
  const outage = databaseUnavailable(error);
  if (outage) {
    logger.warn({ cause: outage }, "database unavailable at an OAuth endpoint");
    return oauthJson(
      503,
      {
        error: "temporarily_unavailable",
        error_description: "The service cannot reach its database right now. Retry in a moment.",
      },
      { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS) },
    );
  }
  logger.error({ err: error }, "OAuth endpoint failed");
  return oauthJson(500, { error: "server_error", error_description: "An unexpected error occurred." });
}

/** A step of the authorization page: 302 for the GET endpoint; 303 after a POST, so the browser follows with a GET. */
export function authorizationResponse(answer: AuthorizationAnswer, redirectStatus: 302 | 303): Response {
  if (answer.kind === "redirect")
    return new Response(null, { status: redirectStatus, headers: { ...NO_STORE, Location: answer.location } });
  return errorPage(answer.status, answer.title, answer.message);
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

// The page shown instead of redirecting when the request cannot be trusted with a redirect
// (unknown client, unregistered redirect URI): RFC 6749 §4.1.2.1. Plain HTML with inline styles,
// no script, so it renders the same anywhere. (Like every page, it cannot be framed: next.config.js.)
function errorPage(status: 400 | 403, title: string, message: string): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Wayline</title>
<style>
body{margin:0;font-family:ui-sans-serif,system-ui,sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:32rem;margin:4rem auto;padding:0 1.5rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgb(0 0 0 / .05)}
.brand{font-size:.8rem;font-weight:600;letter-spacing:.05em;text-transform:uppercase;color:#1d4ed8}
h1{font-size:1.4rem;margin:.5rem 0 1rem}p{line-height:1.5;color:#334155}a{color:#1d4ed8}
</style></head>
<body><main><div class="card"><p class="brand">Wayline</p><h1>${escape(title)}</h1><p>${escape(message)}</p>
<p>You were not sent anywhere. Go back to the app you came from and try again, or contact its developer.</p>
<p><a href="/">Wayline home</a></p></div></main></body></html>`;
  return new Response(html, {
    status,
    headers: {
      ...NO_STORE,
      "Content-Type": "text/html; charset=utf-8",
    },
  });
}
