import NextAuth from "next-auth";
import { partnerAuthOptions } from "@/server/console/auth-options";

type Context = { params: Promise<{ nextauth: string[] }> };

// GET, POST /api/partner-auth/* — next-auth for the partner console (sign-in, sign-up, sign-out,
// session, CSRF token), separate from the drivers' /api/auth. Redirects after a post are 303.
async function partnerAuth(request: Request, context: Context): Promise<Response> {
  const response: Response = await NextAuth(partnerAuthOptions())(request, context);
  if (request.method !== "POST" || response.status !== 302) return response;
  return new Response(response.body, { status: 303, headers: response.headers });
}

export { partnerAuth as GET, partnerAuth as POST };
