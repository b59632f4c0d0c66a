import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

// Tokens, codes and client secrets: 256 random bits, URL-safe. Only their SHA-256 is stored; a
// slow hash buys nothing for values with this much entropy and would cost every API call.
export function randomToken(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function hashMatches(value: string, expectedHash: string): boolean {
  const a = Buffer.from(sha256(value), "hex");
  const b = Buffer.from(expectedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
