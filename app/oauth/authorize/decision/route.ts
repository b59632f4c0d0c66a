import { handleAuthorizationDecision } from "@/server/oauth/authorize/decision";

// POST /oauth/authorize/decision — the consent form: allow or deny, answered with 303
export const POST = (request: Request) => handleAuthorizationDecision(request);
