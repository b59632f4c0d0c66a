import { mergeClientCredentials, nulFormField } from "@/server/oauth/client-auth";
import { OAuthError, invalidClient, invalidRequest, type ClientProof } from "@/server/oauth/oauth-error";
import { withinOAuthRateLimits } from "./oauth-rate-limit";
import { NO_STORE, oauthErrorResponse, oauthFailure, oauthJson } from "./oauth-responses";

const MAX_FORM_BYTES = 16 * 1024;

/** What an endpoint's handler answers: a JSON body, or null for 200 with none (a revocation). */
type OAuthAnswer = Record<string, unknown> | null;

// The wrapper of the token and revocation endpoints (docs/oauth.md), as withApi is the API's: it
// reads the form (form-encoded only, at most 16 KiB), folds HTTP Basic credentials into it
// (refused when both are sent and differ) and refuses U+0000 in it, before anything is counted;
// then charges the request to whoever it proved to be (oauth-rate-limit.ts) and calls the handler.
// The handler returns its answer or throws an OAuthError; the wrapper answers both with no-store,
// the database out of reach with 503 temporarily_unavailable and anything else with 500
// server_error (oauth-responses.ts).
export function withOAuthEndpoint(
  what: "token" | "revocation",
  handler: (form: Record<string, string>, proof: ClientProof) => Promise<OAuthAnswer>,
): (request: Request) => Promise<Response> {
  return async (request: Request): Promise<Response> => {
    const form = await readForm(request, what);
    if (form instanceof OAuthError) return oauthErrorResponse(form);
    try {
      return await withinOAuthRateLimits(request, form.client_id, (proof) => answer(() => handler(form, proof)));
    } catch (error) {
      return oauthFailure(error);
    }
  };
}

async function answer(run: () => Promise<OAuthAnswer>): Promise<Response> {
  try {
    const body = await run();
    return body === null ? new Response(null, { status: 200, headers: NO_STORE }) : oauthJson(200, body);
  } catch (error) {
    if (error instanceof OAuthError) return oauthErrorResponse(error);
    throw error;
  }
}

async function readForm(request: Request, what: string): Promise<Record<string, string> | OAuthError> {
  const mime = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (mime !== "application/x-www-form-urlencoded")
    return invalidRequest(`The ${what} request must be form-encoded (application/x-www-form-urlencoded).`);
  const raw = await request.text();
  if (raw.length > MAX_FORM_BYTES) return invalidRequest(`The ${what} request is too large.`);
  const form: Record<string, string> = Object.fromEntries(new URLSearchParams(raw));

  const merged = mergeClientCredentials(request.headers.get("authorization"), form);
  if (merged === "disagree")
    return invalidClient("The client credentials in the Authorization header and the form do not agree.");
  const nul = nulFormField(form);
  if (nul?.clientCredentials) return invalidClient(`${nul.field} must not contain the NUL character (U+0000).`);
  if (nul) return invalidRequest(`${nul.field} must not contain the NUL character (U+0000).`);
  return form;
}
