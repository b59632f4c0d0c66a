// API paths are called from browsers with a bearer token, never with cookies, so any origin may
// call them (docs/api.md#environments-and-base-paths).
export const corsHeaders: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "WWW-Authenticate, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id",
};

export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders,
      "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
      "Access-Control-Allow-Headers": "Authorization, Content-Type, Last-Event-ID",
      "Access-Control-Max-Age": "600",
    },
  });
}
