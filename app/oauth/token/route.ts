import { handleTokenRequest } from "@/server/oauth/token-endpoint";

// POST /oauth/token — token endpoint for both environments: the client id decides (contract §1)
export const POST = (request: Request) => handleTokenRequest(request, null);
