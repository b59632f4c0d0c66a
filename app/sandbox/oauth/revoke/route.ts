import { revocationEndpoint } from "@/app/oauth/_lib/endpoints";
import { otherThanPost } from "@/server/http/oauth-method-not-allowed";

// POST /sandbox/oauth/revoke — RFC 7009 token revocation for sandbox clients only
export const POST = revocationEndpoint("sandbox");

// Any other method: 405 JSON with Allow: POST
export const { GET, PUT, PATCH, DELETE } = otherThanPost();
