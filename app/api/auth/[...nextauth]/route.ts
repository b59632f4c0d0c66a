import NextAuth from "next-auth";
import { authOptions } from "@/server/auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

// GET, POST /api/auth/* — next-auth (sign-in, registration, sign-out, session, CSRF token).
// A form post that next-auth answers with a redirect gets 303, the status that tells every
// client to follow with a GET (next-auth says 302).
async function auth(request: Request, context: Context): Promise<Response> {
  const response: Response = await NextAuth(authOptions())(request, context);
  if (request.method !== "POST" || response.status !== 302) return response;
  return new Response(response.body, { status: 303, headers: response.headers });
}

export { auth as GET, auth as POST };
