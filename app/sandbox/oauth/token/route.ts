import { tokenEndpoint } from "@/app/oauth/_lib/endpoints";
import { otherThanPost } from "@/server/http/oauth-method-not-allowed";

// POST /sandbox/oauth/token — token endpoint for sandbox clients only
export const POST = tokenEndpoint("sandbox");

// Any other method: 405 JSON with Allow: POST
export const { GET, PUT, PATCH, DELETE } = otherThanPost();
