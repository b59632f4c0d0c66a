import { crossSitePost } from "./cross-site";
import { errorPage, type AuthorizationAnswer } from "@/server/surfaces/authorize/answer";
import { authorizationResponse } from "./oauth-responses";

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);
const MAX_FORM_BYTES = 64 * 1024;

// The wrappers of the authorization page's two route handlers (docs/oauth.md#authorization-page).
// The page (server/surfaces/authorize/, on the protocol's checks in server/oauth/authorize/)
// decides where the browser goes or which error page it sees; these send that answer
// (oauth-responses.ts), never cached.

/** GET /oauth/authorize: the request's query in, a 302 or our error page out. */
export function withAuthorizationRequest(answer: (query: URLSearchParams) => Promise<AuthorizationAnswer>) {
  return async (request: Request): Promise<Response> =>
    authorizationResponse(await answer(new URL(request.url).searchParams), 302);
}

/**
 * POST /oauth/authorize/decision: the consent form read (a form, at most 64 KiB, from our own
 * site, else our error page), its fields in, a 303 (the browser follows to the app with a GET) or
 * our error page out.
 */
export function withConsentForm(answer: (fields: URLSearchParams) => Promise<AuthorizationAnswer>) {
  return async (request: Request): Promise<Response> => {
    const fields = await readConsentForm(request);
    return authorizationResponse(fields instanceof URLSearchParams ? await answer(fields) : fields, 303);
  };
}

async function readConsentForm(request: Request): Promise<URLSearchParams | AuthorizationAnswer> {
  const mime = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!FORM_TYPES.has(mime))
    return errorPage(400, "This form could not be read", "The consent form must be posted as a form.");
  if (Number(request.headers.get("content-length") ?? 0) > MAX_FORM_BYTES)
    return errorPage(400, "This form could not be read", "The consent form is too large.");
  if (crossSitePost(request))
    return errorPage(403, "Request refused", "This consent came from another site, so it was ignored.");
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return errorPage(400, "This form could not be read", "The consent form could not be read.");
  }
  const fields = new URLSearchParams();
  for (const [name, value] of form) if (typeof value === "string") fields.append(name, value);
  return fields;
}
