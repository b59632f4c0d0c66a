// Re-exported by the token and revocation endpoints for the methods they do not serve: 405 with
// Allow: POST and an RFC 6749-style JSON body (docs/oauth.md#token-endpoint), instead of Next.js's
// empty default.
/** The answer, also given by npm start's server for methods Next.js cannot route (before-next.ts). */
export const POST_ONLY = {
  status: 405,
  headers: { "Content-Type": "application/json", Allow: "POST", "Cache-Control": "no-store", Pragma: "no-cache" },
  body: { error: "invalid_request", error_description: "This endpoint takes POST only." },
};

const methodNotAllowed = async () =>
  Response.json(POST_ONLY.body, { status: POST_ONLY.status, headers: POST_ONLY.headers });

export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
