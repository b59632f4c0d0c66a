import { inboxPost } from "@/server/inbox/http";
import { notAllowedExcept } from "@/server/http/method-not-allowed";

type Context = { params: Promise<{ token: string }> };

// POST /sandbox/inbox/{token} — an app's sandbox inbox: stores the request (the last 100 are kept) and
// answers 200, or the 500 / 401 the partner chose in the console.
export async function POST(request: Request, context: Context): Promise<Response> {
  return inboxPost(request, (await context.params).token);
}

export const GET = notAllowedExcept("POST");
export const PUT = notAllowedExcept("POST");
export const PATCH = notAllowedExcept("POST");
export const DELETE = notAllowedExcept("POST");
