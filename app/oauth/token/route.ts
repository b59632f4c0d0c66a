import { handleTokenRequest } from "@/server/oauth/token-endpoint";

// POST /oauth/token — token endpoint for both environments: the client id decides (docs/api.md#environments-and-base-paths)
export const POST = (request: Request) => handleTokenRequest(request, null);

// Any other method: 405 JSON with Allow: POST
export { GET, PUT, PATCH, DELETE } from "@/server/oauth/method-not-allowed";
