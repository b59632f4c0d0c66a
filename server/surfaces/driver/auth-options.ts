import CredentialsProvider from "next-auth/providers/credentials";
import { signInWithPassword, type SessionUser } from "./credentials";
import { newSessionId, nextAuthStack, withClientAddress } from "@/server/platform/sessions/next-auth-stack";
import { registerDriver } from "./registration";

// next-auth over Wayline accounts: two credentials providers (sign in with a password, or
// register and be signed in), JWT sessions in an httpOnly SameSite=Lax cookie. A session is one
// account of one environment; `sid` is a random id per sign-in that binds the CSRF tokens of the
// forms shown to that session (csrf.ts). What the partners' stack shares:
// server/platform/sessions/next-auth-stack.ts.
export const authOptions = nextAuthStack(() => ({
  signInPage: "/login",
  logName: "next-auth",
  providers: [
    CredentialsProvider({
      id: "password",
      name: "Password",
      credentials: { environment: { type: "text" }, username: { type: "text" }, password: { type: "password" } },
      authorize: withClientAddress(signInWithPassword),
    }),
    CredentialsProvider({
      id: "registration",
      name: "Registration",
      credentials: {},
      authorize: withClientAddress(registerDriver),
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        const driver = user as unknown as SessionUser;
        return {
          sub: driver.id,
          name: driver.name,
          accountId: driver.accountId,
          environment: driver.environment,
          username: driver.username,
          sid: newSessionId(),
        };
      }
      return token;
    },
    session({ session, token }) {
      const shaped = {
        expires: session.expires,
        user: { name: token.name },
        driver: {
          accountId: token.accountId,
          environment: token.environment,
          username: token.username,
          name: token.name,
          sid: token.sid,
        },
      };
      return shaped;
    },
  },
}));
