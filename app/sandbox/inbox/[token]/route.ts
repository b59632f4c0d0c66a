import { inboxPost } from "@/server/http/inbox-post";
import { notAllowedExcept } from "@/server/http/method-not-allowed";

// POST /sandbox/inbox/{token} — an app's sandbox inbox: stores the request (the last 100 are kept) and
// answers 200, or the 500 / 401 the partner chose in the console.
export const POST = inboxPost;

export const GET = notAllowedExcept("POST");
export const PUT = notAllowedExcept("POST");
export const PATCH = notAllowedExcept("POST");
export const DELETE = notAllowedExcept("POST");
