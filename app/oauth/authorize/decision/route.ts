import { withConsentForm } from "@/server/http/with-authorization-page";
import { answerConsent } from "@/server/surfaces/authorize/decision";

// POST /oauth/authorize/decision — the consent form: allow or deny, answered with 303
export const POST = withConsentForm(answerConsent);
