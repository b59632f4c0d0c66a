import { tokenEndpoint } from "@/app/oauth/_lib/endpoints";
import { otherThanPost } from "@/server/http/oauth-method-not-allowed";

// POST /oauth/token — token endpoint for both environments: the client id decides (docs/api.md#environments-and-base-paths)
export const POST = tokenEndpoint(null);

// Any other method: 405 JSON with Allow: POST
export const { GET, PUT, PATCH, DELETE } = otherThanPost();
