import { randomBytes } from "node:crypto";
import type { NextAuthOptions, RequestInternal } from "next-auth";
import { exportNextAuthOrigin } from "@/server/platform/env";
import { childLogger } from "@/server/platform/log";
import { clientAddress } from "@/server/platform/request/client-address";
import { announceSessionEnd } from "@/server/platform/wakeups/session-ends";
import { publicOrigin } from "@/server/platform/request/public-origin";
import { nextAuthLogger } from "./logger";
import { sessionSecret } from "./session-secret";

// What the two next-auth stacks share: the drivers' (server/surfaces/driver/auth-options.ts,
// /api/auth) and the partners' (server/surfaces/console/auth-options.ts, /api/partner-auth). Each keeps its own providers, token shape
// and cookies; both have JWT sessions of the same lifetime under the one server secret, our own
// sign-in page for errors too, a random `sid` per sign-in (the CSRF tokens bind to it:
// session-hmac.ts) and 303 after a form post (their route handler: server/http/with-next-auth.ts).

/** A session lasts this long from sign-in; signing in again starts a new one. */
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

type StackOptions = Pick<NextAuthOptions, "providers" | "callbacks" | "cookies"> & {
  signInPage: string;
  logName: string;
};

/** The stack's options, built on first use (the secret may have to be generated), then kept. */
export function nextAuthStack(build: () => StackOptions): () => NextAuthOptions {
  let cached: NextAuthOptions | undefined;
  return () => {
    if (cached) return cached;
    exportNextAuthOrigin(publicOrigin());
    const { signInPage, logName, ...own } = build();
    cached = {
      secret: sessionSecret(),
      session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
      // Our own pages, never next-auth's built-in ones (a failed sign-in stays on the form).
      pages: { signIn: signInPage, error: signInPage },
      ...own,
      // A sign-out closes the session's open streams (the live map) in every process.
      events: { signOut: ({ token }) => endStreams(token?.sid) },
      logger: nextAuthLogger(logName),
    };
    return cached;
  };
}

const log = childLogger({ component: "next-auth" });

async function endStreams(sid: unknown): Promise<void> {
  if (typeof sid !== "string") return;
  // The sign-out itself stands either way: its cookie is gone.
  await announceSessionEnd(sid).catch((error: unknown) => log.warn({ err: error }, "announcing a sign-out failed"));
}

/** A new session's random id. */
export const newSessionId = () => randomBytes(16).toString("base64url");

/** A credentials provider's authorize, given the client's address (sign-in attempts are throttled by it). */
export const withClientAddress =
  <U>(authorize: (credentials: Record<string, string> | undefined, address: string) => Promise<U>) =>
  (credentials: Record<string, string> | undefined, req: Pick<RequestInternal, "headers">) =>
    authorize(credentials, clientAddress(req.headers ?? {}));
