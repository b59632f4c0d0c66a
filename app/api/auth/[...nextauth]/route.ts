import { nextAuthRoute } from "@/server/auth/next-auth-stack";
import { authOptions } from "@/server/auth/options";

// GET, POST /api/auth/* — next-auth (sign-in, registration, sign-out, session, CSRF token).
// Redirects after a post are 303 (next-auth-stack.ts).
const auth = nextAuthRoute(authOptions);

export { auth as GET, auth as POST };
