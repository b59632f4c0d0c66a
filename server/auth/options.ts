import { randomBytes } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { exportNextAuthOrigin } from "@/server/env";
import { clientAddress } from "@/server/request/client-address";
import { publicOrigin } from "@/server/request/public-origin";
import { signInWithPassword, type SessionUser } from "./credentials";
import { nextAuthLogger } from "./next-auth-logger";
import { registerDriver } from "./registration";
import { sessionSecret } from "./session-secret";

/** A session lasts this long from sign-in; signing in again starts a new one. */
const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

let cached: NextAuthOptions | undefined;

// next-auth over Wayline accounts: two credentials providers (sign in with a password, or
// register and be signed in), JWT sessions in an httpOnly SameSite=Lax cookie. A session is one
// account of one environment; `sid` is a random id per sign-in that binds the CSRF tokens of the
// forms shown to that session (csrf.ts). Built on first use: the secret may have to be generated.
export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  exportNextAuthOrigin(publicOrigin());
  cached = {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // Our own pages, never next-auth's built-in ones (a failed sign-in stays on the form).
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        id: "password",
        name: "Password",
        credentials: { environment: { type: "text" }, username: { type: "text" }, password: { type: "password" } },
        authorize: (credentials, req) => signInWithPassword(credentials, clientAddress(req.headers ?? {})),
      }),
      CredentialsProvider({
        id: "registration",
        name: "Registration",
        credentials: {},
        authorize: (credentials, req) => registerDriver(credentials, clientAddress(req.headers ?? {})),
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const driver = user as unknown as SessionUser;
          return { sub: driver.id, name: driver.name, accountId: driver.accountId, environment: driver.environment, username: driver.username, sid: randomBytes(16).toString("base64url") };
        }
        return token;
      },
      session({ session, token }) {
        const shaped = { expires: session.expires, user: { name: token.name }, driver: { accountId: token.accountId, environment: token.environment, username: token.username, name: token.name, sid: token.sid } };
        return shaped;
      },
    },
    logger: nextAuthLogger("next-auth"),
  };
  return cached;
}
