import { createHmac, timingSafeEqual } from "node:crypto";
import { sessionSecret } from "./session-secret";

// The CSRF tokens of both stacks' forms (server/surfaces/driver/csrf.ts for the driver site,
// server/surfaces/console/csrf.ts for the console): an HMAC under the server secret of lines that
// name the purpose, the session's owner and its random sid, and a comparison in constant time.

export function sessionHmac(...lines: (string | number)[]): string {
  return createHmac("sha256", sessionSecret()).update(lines.join("\n")).digest("base64url");
}

export function sameToken(expected: string, presented: unknown): boolean {
  if (typeof presented !== "string") return false;
  const wanted = Buffer.from(expected);
  const given = Buffer.from(presented);
  return wanted.length === given.length && timingSafeEqual(wanted, given);
}
