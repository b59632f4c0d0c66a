import { withAuthorizationRequest } from "@/server/http/with-authorization-page";
import { answerAuthorizationRequest } from "@/server/surfaces/authorize/answer-request";

export const dynamic = "force-dynamic";

// GET /sandbox/oauth/authorize (and /sandbox/OAuth/authorize) — for sandbox clients only
export const GET = withAuthorizationRequest((query) => answerAuthorizationRequest(query, "sandbox"));
