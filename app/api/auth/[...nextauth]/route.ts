import { withNextAuth } from "@/server/http/with-next-auth";
import { authOptions } from "@/server/surfaces/driver/auth-options";

// GET, POST /api/auth/* — next-auth (sign-in, registration, sign-out, session, CSRF token).
// Redirects after a post are 303 (server/http/with-next-auth.ts).
const auth = withNextAuth(authOptions);

export { auth as GET, auth as POST };
