import type { Executor } from "@/db/client";
import type { Environment } from "@/db/schema";
import { hashMatches } from "@/server/platform/security/secrets";
import { findCredentialByClientId, type CredentialRow } from "./queries";
import { nulField } from "@/common/http/nul";

// Client authentication at the back-channel endpoints (token, revocation): HTTP Basic, or
// client_id and client_secret form fields, or both when they agree (docs/oauth.md).

function basicCredentials(header: string | null): { id: string; secret: string } | null {
  if (!header?.startsWith("Basic ")) return null;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  // RFC 6749 §2.3.1: both parts are form-urlencoded before base64.
  const unescape = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, " "));
    } catch {
      return s;
    }
  };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

/** Folds HTTP Basic credentials into the form fields; "disagree" when both are sent and differ. */
export function mergeClientCredentials(authorization: string | null, body: Record<string, string>): "disagree" | "ok" {
  const basic = basicCredentials(authorization);
  if (!basic) return "ok";
  if ((body.client_id && body.client_id !== basic.id) || (body.client_secret && body.client_secret !== basic.secret))
    return "disagree";
  body.client_id = basic.id;
  body.client_secret = basic.secret;
  return "ok";
}

/**
 * The first form field (client credentials from HTTP Basic included, so after
 * mergeClientCredentials) whose name or value holds U+0000, which PostgreSQL cannot compare or
 * store: the endpoints refuse it before any lookup, invalid_client when it is the client's
 * credentials, invalid_request otherwise (docs/oauth.md).
 */
export function nulFormField(body: Record<string, string>): { field: string; clientCredentials: boolean } | undefined {
  const field = nulField(body);
  return field === undefined
    ? undefined
    : { field, clientCredentials: field === "client_id" || field === "client_secret" };
}

/**
 * The client these credentials authenticate, or null. A confidential client needs its secret; a
 * public one (no secret kept safely) identifies itself by client id alone. An endpoint of one
 * environment knows only that environment's clients.
 */
export async function authenticateClient(
  db: Executor,
  {
    clientId,
    clientSecret,
    environment,
  }: { clientId: string | undefined; clientSecret: string | undefined; environment: Environment | null },
): Promise<CredentialRow | null> {
  if (!clientId || clientId.length > 200) return null;
  const credential = await findCredentialByClientId(db, { clientId });
  if (!credential || (environment && credential.environment !== environment)) return null;
  if (clientSecret === undefined || clientSecret === "") return credential.isPublic ? credential : null;
  return hashMatches(clientSecret, credential.secretHash) ? credential : null;
}
