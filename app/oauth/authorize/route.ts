import { handleAuthorizationRequest } from "@/server/oauth/authorize/endpoint";

export const dynamic = "force-dynamic";

// GET /oauth/authorize (and /OAuth/authorize, folded by server/http/before-next.ts) — the authorization page's
// protocol step; the client id decides the environment, as at /oauth/token
export const GET = (request: Request) => handleAuthorizationRequest(request, null);
