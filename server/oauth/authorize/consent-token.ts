import { csrfToken, csrfTokenMatches } from "@/server/auth/csrf";
import type { DriverSession } from "@/server/auth/session";
import { AUTHORIZATION_PARAMETERS } from "./request";

// The consent form's token (docs/oauth.md#authorization-page): the session's CSRF token, signed
// over the exact authorization request the page showed, every parameter the form carries (client,
// redirect URI, response type and mode, scope, state, PKCE challenge and method, prompt, login
// hint) with every value it has. A form posted with any of them changed, added, repeated or left
// out no longer matches its token: the driver decided on one request, and only that one is
// answered (without this, app A's form posted with app B's client_id gave B a code). Nothing is
// stored: the token is computed again from what is posted.

function requestSigned(fields: URLSearchParams): string {
  // JSON of each parameter's list of values: unambiguous whatever the values hold.
  return AUTHORIZATION_PARAMETERS.map((name) => `${name}=${JSON.stringify(fields.getAll(name))}`).join("\n");
}

/** The token for a consent form whose hidden fields are `fields`. */
export function consentToken(session: DriverSession, fields: Record<string, string>): string {
  return csrfToken(session, "consent", requestSigned(new URLSearchParams(fields)));
}

/** Whether `presented` is this session's token for exactly the request `fields` carry. */
export function consentTokenMatches(session: DriverSession, fields: URLSearchParams, presented: unknown): boolean {
  return csrfTokenMatches(session, "consent", presented, requestSigned(fields));
}
