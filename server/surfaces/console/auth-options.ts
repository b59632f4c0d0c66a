import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "@/server/platform/env";
import { newSessionId, nextAuthStack, withClientAddress } from "@/server/platform/sessions/next-auth-stack";
import { signInPartner, signUpPartner, type PartnerSessionUser } from "./partner-users";

// Partner sessions are a second next-auth instance with cookies of their own names: the drivers'
// getServerSession never reads a partner cookie and vice versa, so neither session can stand in
// for the other. The token also carries kind "partner", checked on every read (session.ts).
// Separate names also for the CSRF and callback cookies, so signing in on one side never
// disturbs a form open on the other. What the drivers' stack shares:
// server/platform/sessions/next-auth-stack.ts.
export const partnerAuthOptions = nextAuthStack(() => {
  const secure = env().PUBLIC_URL?.startsWith("https://") ?? false;
  const prefix = secure ? "__Secure-" : "";
  const cookie = (name: string, httpOnly = true) => ({
    name: `${prefix}${name}`,
    options: { httpOnly, sameSite: "lax" as const, path: "/", secure },
  });
  return {
    signInPage: "/console/sign-in",
    logName: "next-auth (partner)",
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
        authorize: withClientAddress(signInPartner),
      }),
      CredentialsProvider({
        id: "partner-registration",
        name: "Partner registration",
        credentials: {},
        authorize: withClientAddress(signUpPartner),
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const partner = user as unknown as PartnerSessionUser;
          return {
            sub: partner.id,
            kind: "partner",
            partnerUserId: partner.partnerUserId,
            name: partner.name,
            email: partner.email,
            sid: newSessionId(),
          };
        }
        return token;
      },
      session({ session, token }) {
        return {
          expires: session.expires,
          partner: {
            kind: token.kind,
            partnerUserId: token.partnerUserId,
            email: token.email,
            name: token.name,
            sid: token.sid,
          },
        };
      },
    },
  };
});
