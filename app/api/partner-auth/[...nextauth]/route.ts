import { withNextAuth } from "@/server/http/with-next-auth";
import { partnerAuthOptions } from "@/server/surfaces/console/auth-options";

// GET, POST /api/partner-auth/* — next-auth for the partner console (sign-in, sign-up, sign-out,
// session, CSRF token), separate from the drivers' /api/auth. Redirects after a post are 303.
const partnerAuth = withNextAuth(partnerAuthOptions);

export { partnerAuth as GET, partnerAuth as POST };
