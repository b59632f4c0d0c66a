import { handleAuthorizationRequest } from "@/server/oauth/authorize/endpoint";

export const dynamic = "force-dynamic";

// GET /sandbox/oauth/authorize (and /sandbox/OAuth/authorize) — for sandbox clients only
export const GET = (request: Request) => handleAuthorizationRequest(request, "sandbox");
