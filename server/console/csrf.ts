import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "@/server/auth/session-secret";
import type { PartnerSession } from "./session";

// Every console form carries this token: an HMAC of the partner and the session's random sid
// under the server secret (the pattern of server/auth/csrf.ts). Origin and Sec-Fetch-Site are
// checked first (crossSitePost there).
export function consoleCsrfToken(session: PartnerSession): string {
  return createHmac("sha256", sessionSecret()).update(`wayline-console-csrf\n${session.partnerUserId}\n${session.sid}`).digest("base64url");
}

export function consoleCsrfMatches(session: PartnerSession, presented: unknown): boolean {
  if (typeof presented !== "string") return false;
  const expected = Buffer.from(consoleCsrfToken(session));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
