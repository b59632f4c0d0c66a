import { handleTokenRequest } from "@/server/oauth/token-endpoint";

// POST /sandbox/oauth/token — token endpoint for sandbox clients only
export const POST = (request: Request) => handleTokenRequest(request, "sandbox");

// Any other method: 405 JSON with Allow: POST
export { GET, PUT, PATCH, DELETE } from "@/server/oauth/method-not-allowed";
