import { nextAuthRoute } from "@/server/auth/next-auth-stack";
import { partnerAuthOptions } from "@/server/surfaces/console/auth-options";

// GET, POST /api/partner-auth/* — next-auth for the partner console (sign-in, sign-up, sign-out,
// session, CSRF token), separate from the drivers' /api/auth. Redirects after a post are 303.
const partnerAuth = nextAuthRoute(partnerAuthOptions);

export { partnerAuth as GET, partnerAuth as POST };
