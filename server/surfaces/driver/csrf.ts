import { sameToken, sessionHmac } from "@/server/platform/sessions/session-hmac";
import type { DriverSession } from "./session";

// CSRF protection for the forms a signed-in driver posts (consent, revoke): a token bound to the
// session (HMAC of the purpose, the account and the session's random sid under the server
// secret), rendered into the form and checked on post. A page on another site can neither read
// it nor compute it. A form that decides one thing signs that thing too (`boundTo`: the consent
// form's authorization request), so the token does not carry over to a form with other fields.
// Sign-in and registration use next-auth's own double-submit token. Posts from another site are
// refused before the token is looked at (server/http/cross-site.ts).

export type CsrfPurpose = "consent" | "revoke" | "precision" | "location-pause";

export function csrfToken(session: DriverSession, purpose: CsrfPurpose, boundTo = ""): string {
  return sessionHmac("wayline-csrf", purpose, session.environment, session.accountId, session.sid, boundTo);
}

export function csrfTokenMatches(
  session: DriverSession,
  purpose: CsrfPurpose,
  presented: unknown,
  boundTo = "",
): boolean {
  return sameToken(csrfToken(session, purpose, boundTo), presented);
}
