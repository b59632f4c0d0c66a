import { handleRevocationRequest } from "@/server/oauth/revoke-endpoint";

// POST /sandbox/oauth/revoke — RFC 7009 token revocation for sandbox clients only
export const POST = (request: Request) => handleRevocationRequest(request, "sandbox");

// Any other method: 405 JSON with Allow: POST
export { GET, PUT, PATCH, DELETE } from "@/server/oauth/method-not-allowed";
