import { UNAVAILABLE_RETRY_SECONDS } from "@/common/http/errors";
import { databaseUnavailable } from "@/db/unavailable";
import { apiErrorOf } from "./refusal";
import { escapeHtml, plainPage } from "./plain-page";
import type { AuthorizationAnswer } from "@/server/surfaces/authorize/answer";
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

// Whatever the domain did not answer itself, logged once as every wrapper logs (apiErrorOf). The
// database out of reach (stopped, restarting): 503 with RFC 6749's temporarily_unavailable and a
// time to retry after, as the API answers 500 INTERNAL with Retry-After
// (docs/operations.md#a-database-restart). Anything else: 500 server_error.
export function oauthFailure(error: unknown): Response {
  apiErrorOf(error, "an OAuth endpoint");
  if (databaseUnavailable(error)) {
    return oauthJson(
      503,
      {
        error: "temporarily_unavailable",
        error_description: "The service cannot reach its database right now. Retry in a moment.",
      },
      { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS) },
    );
  }
  return oauthJson(500, { error: "server_error", error_description: "An unexpected error occurred." });
}

/** A step of the authorization page: 302 for the GET endpoint; 303 after a POST, so the browser follows with a GET. */
export function authorizationResponse(answer: AuthorizationAnswer, redirectStatus: 302 | 303): Response {
  if (answer.kind === "redirect")
    return new Response(null, { status: redirectStatus, headers: { ...NO_STORE, Location: answer.location } });
  return errorPage(answer.status, answer.title, answer.message);
}

// The page shown instead of redirecting when the request cannot be trusted with a redirect
// (unknown client, unregistered redirect URI): RFC 6749 §4.1.2.1.
function errorPage(status: 400 | 403, title: string, message: string): Response {
  return plainPage(
    status,
    title,
    `<p>${escapeHtml(message)}</p>
<p>You were not sent anywhere. Go back to the app you came from and try again, or contact its developer.</p>
<p><a href="/">Wayline home</a></p>`,
    NO_STORE,
  );
}
