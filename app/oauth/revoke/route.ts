import { revocationEndpoint } from "@/app/oauth/_lib/endpoints";
import { otherThanPost } from "@/server/http/oauth-method-not-allowed";

// POST /oauth/revoke — RFC 7009 token revocation for both environments: the client id decides
export const POST = revocationEndpoint(null);

// Any other method: 405 JSON with Allow: POST
export const { GET, PUT, PATCH, DELETE } = otherThanPost();
