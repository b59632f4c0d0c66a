// The token and revocation endpoints answer the methods they do not serve with 405, Allow: POST and
// an RFC 6749-style JSON body (docs/oauth.md#token-endpoint), instead of Next.js's empty default.
/** The answer, also given by npm start's server for methods Next.js cannot route (before-next.ts). */
export const POST_ONLY = {
  status: 405,
  headers: { "Content-Type": "application/json", Allow: "POST", "Cache-Control": "no-store", Pragma: "no-cache" },
  body: { error: "invalid_request", error_description: "This endpoint takes POST only." },
};

const methodNotAllowed = async () =>
  Response.json(POST_ONLY.body, { status: POST_ONLY.status, headers: POST_ONLY.headers });

/**
 * The 405 handlers of an OAuth endpoint's route file, for every method but POST:
 * `export const { GET, PUT, PATCH, DELETE } = otherThanPost();`
 */
export function otherThanPost() {
  return { GET: methodNotAllowed, PUT: methodNotAllowed, PATCH: methodNotAllowed, DELETE: methodNotAllowed };
}
