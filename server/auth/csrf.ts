import { env } from "@/server/platform/env";
import { requestOrigin } from "@/server/platform/request/origin";
import type { DriverSession } from "./session";
import { sameToken, sessionHmac } from "./session-hmac";

// CSRF protection for the forms a signed-in driver posts (consent, revoke): a token bound to the
// session (HMAC of the purpose, the account and the session's random sid under the server
// secret), rendered into the form and checked on post. A page on another site can neither read
// it nor compute it. A form that decides one thing signs that thing too (`boundTo`: the consent
// form's authorization request), so the token does not carry over to a form with other fields.
// Sign-in and registration use next-auth's own double-submit token.

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

// Defence in depth for the same forms: a browser posting from another origin says so (Origin,
// Sec-Fetch-Site), and such a post is refused even before the token is looked at. "Origin: null"
// (privacy-sensitive contexts) tells nothing either way: the token decides.
export function crossSitePost(request: Request): boolean {
  if (request.headers.get("sec-fetch-site") === "cross-site") return true;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  const ours = new Set([requestOrigin(request)]);
  const publicUrl = env().PUBLIC_URL;
  if (publicUrl) ours.add(new URL(publicUrl).origin);
  return !ours.has(origin);
}
