// Re-exported by the token and revocation endpoints for the methods they do not serve: 405 with
// Allow: POST and an RFC 6749-style JSON body (docs/oauth.md#token-endpoint), instead of Next.js's
// empty default.
const methodNotAllowed = async () =>
  Response.json(
    { error: "invalid_request", error_description: "This endpoint takes POST only." },
    { status: 405, headers: { Allow: "POST", "Cache-Control": "no-store", Pragma: "no-cache" } },
  );

export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
