import { handleTokenRequest } from "@/server/oauth/token-endpoint";

// POST /sandbox/oauth/token — token endpoint for sandbox clients only
export const POST = (request: Request) => handleTokenRequest(request, "sandbox");
