import { sameToken, sessionHmac } from "@/server/platform/sessions/session-hmac";
import type { PartnerSession } from "./session";

// Every console form carries this token: an HMAC of the partner and the session's random sid
// under the server secret (server/platform/sessions/session-hmac.ts, as the driver site's). Origin
// and Sec-Fetch-Site are checked first (crossSitePost in server/http/cross-site.ts).
export function consoleCsrfToken(session: PartnerSession): string {
  return sessionHmac("wayline-console-csrf", session.partnerUserId, session.sid);
}

export function consoleCsrfMatches(session: PartnerSession, presented: unknown): boolean {
  return sameToken(consoleCsrfToken(session), presented);
}
