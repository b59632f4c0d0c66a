import { withAuthorizationRequest } from "@/server/http/with-authorization-page";
import { answerAuthorizationRequest } from "@/server/surfaces/authorize/answer-request";

export const dynamic = "force-dynamic";

// GET /oauth/authorize (and /OAuth/authorize, folded by server/http/before-next.ts) — the authorization page's
// protocol step; the client id decides the environment, as at /oauth/token
export const GET = withAuthorizationRequest((query) => answerAuthorizationRequest(query, null));
