import { randomBytes } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env, exportNextAuthOrigin } from "@/server/env";
import { nextAuthLogger } from "@/server/auth/next-auth-logger";
import { sessionSecret } from "@/server/auth/session-secret";
import { clientAddress } from "@/server/request/client-address";
import { publicOrigin } from "@/server/request/public-origin";
import { signInPartner, signUpPartner, type PartnerSessionUser } from "./partner-users";

const PARTNER_SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

// Partner sessions are a second next-auth instance with cookies of their own names: the drivers'
// getServerSession never reads a partner cookie and vice versa, so neither session can stand in
// for the other. The token also carries kind "partner", checked on every read (session.ts).
// Separate names also for the CSRF and callback cookies, so signing in on one side never
// disturbs a form open on the other.
export function partnerAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  exportNextAuthOrigin(publicOrigin());
  const secure = env().PUBLIC_URL?.startsWith("https://") ?? false;
  const prefix = secure ? "__Secure-" : "";
  const cookie = (name: string, httpOnly = true) => ({ name: `${prefix}${name}`, options: { httpOnly, sameSite: "lax" as const, path: "/", secure } });
  cached = {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: PARTNER_SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/console/sign-in", error: "/console/sign-in" },
    cookies: {
      sessionToken: cookie("wayline-partner.session-token"),
      csrfToken: cookie("wayline-partner.csrf-token"),
      callbackUrl: cookie("wayline-partner.callback-url"),
    },
    providers: [
      CredentialsProvider({
        id: "partner-password",
        name: "Partner password",
        credentials: { email: { type: "email" }, password: { type: "password" } },
        authorize: (credentials, req) => signInPartner(credentials, clientAddress(req.headers ?? {})),
      }),
      CredentialsProvider({
        id: "partner-registration",
        name: "Partner registration",
        credentials: {},
        authorize: (credentials) => signUpPartner(credentials),
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const partner = user as unknown as PartnerSessionUser;
          return { sub: partner.id, kind: "partner", partnerUserId: partner.partnerUserId, name: partner.name, email: partner.email, sid: randomBytes(16).toString("base64url") };
        }
        return token;
      },
      session({ session, token }) {
        return { expires: session.expires, partner: { kind: token.kind, partnerUserId: token.partnerUserId, email: token.email, name: token.name, sid: token.sid } };
      },
    },
    logger: nextAuthLogger("next-auth (partner)"),
  };
  return cached;
}

let cached: NextAuthOptions | undefined;
