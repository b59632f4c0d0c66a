import { handleRevocationRequest } from "@/server/oauth/revoke-endpoint";

// POST /oauth/revoke — RFC 7009 token revocation for both environments: the client id decides
export const POST = (request: Request) => handleRevocationRequest(request, null);

// Any other method: 405 JSON with Allow: POST
export { GET, PUT, PATCH, DELETE } from "@/server/oauth/method-not-allowed";
