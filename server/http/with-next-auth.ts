import NextAuth, { type NextAuthOptions } from "next-auth";

type Context = { params: Promise<{ nextauth: string[] }> };

// The route handler of a next-auth stack (server/platform/sessions/next-auth-stack.ts: the drivers'
// /api/auth, the partners' /api/partner-auth). A form post that next-auth answers with a redirect gets 303,
// the status that tells every client to follow with a GET (next-auth says 302).
export function withNextAuth(options: () => NextAuthOptions) {
  return async function handler(request: Request, context: Context): Promise<Response> {
    const response: Response = await NextAuth(options())(request, context);
    if (request.method !== "POST" || response.status !== 302) return response;
    return new Response(response.body, { status: 303, headers: response.headers });
  };
}
