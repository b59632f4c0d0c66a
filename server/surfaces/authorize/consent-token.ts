import { csrfToken, csrfTokenMatches } from "@/server/surfaces/driver/csrf";
import type { DriverSession } from "@/server/surfaces/driver/session";
import { parseRequestedScope, precisionsUpTo, type LocationPrecision } from "@/common/oauth/grant-scope";
import { AUTHORIZATION_PARAMETERS } from "@/server/oauth/authorize/request";

// The consent form's token (docs/oauth.md#authorization-page): the session's CSRF token, signed
// over the exact authorization request the page showed, every parameter the form carries (client,
// redirect URI, response type and mode, scope, state, PKCE challenge and method, prompt, login
// hint) with every value it has, and over the location precisions the page offered the driver
// (never more than the app asked for). A form posted with any of them changed, added, repeated or
// left out no longer matches its token: the driver decided on one request, and only that one is
// answered (without this, app A's form posted with app B's client_id gave B a code). Nothing is
// stored: the token is computed again from what is posted.

/** The precisions the consent page offers for a request's `scope` (none when it cannot be granted). */
export function locationChoices(scope: string): LocationPrecision[] {
  const parsed = parseRequestedScope(scope);
  return parsed.ok ? precisionsUpTo(parsed.asked.location) : [];
}

function requestSigned(fields: URLSearchParams): string {
  // JSON of each parameter's list of values: unambiguous whatever the values hold.
  const request = AUTHORIZATION_PARAMETERS.map((name) => `${name}=${JSON.stringify(fields.getAll(name))}`);
  // The choice's allowed range, as the page offered it; a single scope value is what the page read.
  const scopes = fields.getAll("scope");
  const choices = scopes.length === 1 ? locationChoices(scopes[0]!) : [];
  return [...request, `location_choices=${JSON.stringify(choices)}`].join("\n");
}

/** The token for a consent form whose hidden fields are `fields`. */
export function consentToken(session: DriverSession, fields: Record<string, string>): string {
  return csrfToken(session, "consent", requestSigned(new URLSearchParams(fields)));
}

/** Whether `presented` is this session's token for exactly the request `fields` carry. */
export function consentTokenMatches(session: DriverSession, fields: URLSearchParams, presented: unknown): boolean {
  return csrfTokenMatches(session, "consent", presented, requestSigned(fields));
}
