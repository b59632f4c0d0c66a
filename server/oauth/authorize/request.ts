import { AuthorizationRequest, OAuthRequest, isOAuthError, type OAuthException } from "@jmondi/oauth2-server";
import { z } from "zod";
import { db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { redirectUriProblem } from "@/server/apps/redirect-uris";
import { nulField } from "@/common/http/nul";
import { makeAuthorizationServer } from "../authorization-server";
import { parseRequestedScope, type GrantScope } from "@/common/oauth/grant-scope";
import { findCredentialByClientId, type CredentialRow } from "../queries";
import { clientRedirect, withoutFragment, type ResponseMode } from "./redirect";

// Reads and checks an authorization request (docs/oauth.md#authorization-page; RFC 6749 §4.1.1, §4.2.1; RFC 7636).
// The order matters: until the client and its redirect URI are known to match, nothing may send
// the browser anywhere (RFC 6749 §4.1.2.1), so those problems end on our error page; every later
// problem goes back to the app as an error redirect carrying `state`.

type Prompt = "none" | "login" | "consent";

export type AuthorizationParams = {
  clientId: string;
  redirectUri: string;
  responseType: "code" | "token";
  responseMode: ResponseMode;
  state: string | null;
  scope: string;
  codeChallenge: string | null;
  prompt: Prompt[];
  loginHint: string | null;
};

export type ValidAuthorization = {
  params: AuthorizationParams;
  /** What the app asks for (its `scope`, common/oauth/grant-scope.ts): the most the driver can grant. */
  asked: GrantScope;
  client: CredentialRow;
  libraryRequest: AuthorizationRequest;
};

export type AuthorizationCheck =
  /** Show our error page; never redirect (unknown client, bad redirect URI). */
  | { kind: "invalid"; title: string; message: string }
  /** Send the browser back to the app with this error redirect. */
  | { kind: "error"; location: string }
  | { kind: "ok"; authorization: ValidAuthorization };

/** The parameters of an authorization request: all that the continue link and the consent form carry. */
export const AUTHORIZATION_PARAMETERS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "response_mode",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "prompt",
  "login_hint",
] as const;

const paramShape = z.object({
  client_id: z.string().max(200, "client_id is too long.").optional(),
  redirect_uri: z.string().max(2000, "redirect_uri is too long.").optional(),
  response_type: z.string().max(100).optional(),
  response_mode: z.string().max(100).optional(),
  state: z.string().max(2048, "state is longer than 2048 characters.").optional(),
  scope: z.string().max(1024, "scope is longer than 1024 characters.").optional(),
  code_challenge: z.string().max(256).optional(),
  code_challenge_method: z.string().max(100).optional(),
  prompt: z.string().max(100).optional(),
  login_hint: z.string().max(200).optional(),
});

// RFC 7636 §4.2: BASE64URL(SHA256(verifier)) is always 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PROMPTS = new Set<Prompt>(["none", "login", "consent"]);

const invalid = (title: string, message: string): AuthorizationCheck => ({ kind: "invalid", title, message });

export async function checkAuthorizationRequest(
  input: URLSearchParams,
  endpointEnvironment: Environment | null,
): Promise<AuthorizationCheck> {
  // RFC 6749 §3.1: no parameter may appear twice. Empty values count as absent.
  const raw: Record<string, string> = {};
  const repeated: string[] = [];
  for (const name of AUTHORIZATION_PARAMETERS) {
    const values = input.getAll(name).filter((v) => v !== "");
    if (values.length > 1) repeated.push(name);
    if (values[0] !== undefined) raw[name] = values[0];
  }
  if (repeated.includes("client_id") || repeated.includes("redirect_uri")) {
    return invalid(
      "This link is not valid",
      `${repeated.includes("client_id") ? "client_id" : "redirect_uri"} appears more than once in the request.`,
    );
  }
  const shape = paramShape.safeParse(raw);
  const p: z.output<typeof paramShape> = shape.success ? shape.data : {};
  const clientId = raw.client_id;
  const redirectUri = raw.redirect_uri;

  // U+0000 can be neither looked up nor stored (docs/api.md#errors): in the client or its redirect
  // URI it ends on our page like any other bad value there, elsewhere it goes back to the app.
  const nul = nulField(raw);
  if (nul === "client_id" || nul === "redirect_uri")
    return invalid("This link is not valid", `${nul} must not contain the NUL character (U+0000).`);

  // 1. Client and redirect URI: trouble here never redirects.
  if (!clientId)
    return invalid("This link is not valid", "The request does not say which app is asking (client_id is missing).");
  const client = clientId.length <= 200 ? await findCredentialByClientId(db(), { clientId }) : null;
  if (!client)
    return invalid("Unknown app", "The app that sent you here is not registered with Wayline (unknown client_id).");
  if (endpointEnvironment && client.environment !== endpointEnvironment) {
    return invalid(
      "Wrong environment",
      `This app's client id belongs to ${client.environment}; use the ` +
        `${client.environment === "production" ? "/oauth/authorize" : "/sandbox/oauth/authorize"} page.`,
    );
  }
  if (!redirectUri)
    return invalid(
      "This link is not valid",
      "The request does not say where to send you back (redirect_uri is missing).",
    );
  // Exact string comparison (after the URL decoding of the query): no normalisation of case,
  // trailing slashes, ports or query strings, which is where open redirects hide.
  if (!client.redirectUris.includes(redirectUri)) {
    return invalid(
      "This link is not valid",
      `${client.appName} did not register the address it asked to send you back to (redirect_uri does not match).`,
    );
  }
  const envProblem = redirectUriProblem(redirectUri, client.environment);
  if (envProblem)
    return invalid("This link is not valid", `The redirect_uri cannot be used in ${client.environment}: ${envProblem}`);
  // A URI with a fragment (the original's single-page apps) serves the implicit grant only. A code
  // has no place there: inside the fragment no code client looks for it, and in a query before
  // the fragment it would go to a URI that was never registered; an error redirect would have to
  // pick one of the two as well. So, like any redirect URI that cannot be used, it ends on our
  // page (RFC 6749 §4.1.2.1).
  if (redirectUri.includes("#") && raw.response_type === "code") {
    return invalid(
      "This link is not valid",
      `${client.appName} asked for a code to be sent to a redirect_uri with a fragment (#…), which can only receive tokens (response_type=token).`,
    );
  }

  // 2. From here on, errors go back to the app.
  const responseModeValue = raw.response_mode ?? "query";
  const responseMode: ResponseMode = responseModeValue === "fragment" ? "fragment" : "query";
  const state = shape.success ? (p.state ?? null) : null;
  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: "error",
    location: clientRedirect(redirectUri, { error, error_description: description, state }, responseMode),
  });

  if (nul) return fail("invalid_request", `${nul} must not contain the NUL character (U+0000).`);
  if (!shape.success) return fail("invalid_request", shape.error.issues[0]?.message ?? "A parameter is too long.");
  if (repeated.length > 0) return fail("invalid_request", `${repeated.join(", ")} appears more than once.`);
  if (responseModeValue !== "query" && responseModeValue !== "fragment")
    return fail("invalid_request", "response_mode must be query or fragment.");
  if (!p.response_type) return fail("invalid_request", "response_type is required (code or token).");
  if (p.response_type !== "code" && p.response_type !== "token")
    return fail("unsupported_response_type", "response_type must be code or token.");

  const prompt = (p.prompt ?? "").split(" ").filter(Boolean) as Prompt[];
  if (prompt.some((v) => !PROMPTS.has(v)))
    return fail("invalid_request", "prompt may only contain none, login and consent.");
  if (prompt.includes("none") && prompt.length > 1)
    return fail("invalid_request", "prompt=none cannot be combined with other values.");

  let codeChallenge: string | null = null;
  if (p.response_type === "code") {
    const method = p.code_challenge_method;
    if (method !== undefined && p.code_challenge === undefined)
      return fail("invalid_request", "code_challenge_method was sent without a code_challenge.");
    if (p.code_challenge !== undefined) {
      // RFC 7636 makes "plain" the default method; Wayline accepts S256 only (RFC 9700 §2.1.1).
      if (method === undefined)
        return fail("invalid_request", "code_challenge_method is required and must be S256 (plain is not supported).");
      if (method !== "S256")
        return fail("invalid_request", `code_challenge_method ${method} is not supported: use S256.`);
      if (!S256_CHALLENGE.test(p.code_challenge))
        return fail(
          "invalid_request",
          "code_challenge must be the 43-character base64url SHA-256 of the code verifier.",
        );
      codeChallenge = p.code_challenge;
    } else if (client.isPublic) {
      return fail("invalid_request", "This app must use PKCE: send code_challenge and code_challenge_method=S256.");
    }
  }

  const scope = parseRequestedScope(p.scope ?? "");
  if (!scope.ok) return fail("invalid_scope", scope.problem);

  const params: AuthorizationParams = {
    clientId,
    redirectUri,
    responseType: p.response_type,
    responseMode,
    state,
    scope: p.scope ?? "",
    codeChallenge,
    prompt,
    loginHint: p.login_hint ?? null,
  };

  // 3. The library's own validation of the request (client, grant, scopes) builds the request
  // object its grants complete.
  try {
    const server = makeAuthorizationServer({ tx: db(), environment: endpointEnvironment, afterFailure: [] });
    // The library refuses any fragment (RFC 6749 §3.1.2): it gets the URI without it, already
    // matched exactly above, and its answer is rebuilt from the full URI (complete.ts).
    const query = { ...toSearchRecord(params), redirect_uri: withoutFragment(redirectUri) };
    const libraryRequest = await server.validateAuthorizationRequest(new OAuthRequest({ query }));
    return { kind: "ok", authorization: { params, asked: scope.asked, client, libraryRequest } };
  } catch (error) {
    if (!isOAuthError(error)) throw error;
    const e = error as OAuthException;
    return fail(
      e.errorType === "invalid_scope"
        ? "invalid_scope"
        : e.errorType === "unauthorized_client"
          ? "unauthorized_client"
          : "invalid_request",
      e.errorDescription ?? e.message,
    );
  }
}

/** The request's parameters as they travel on: in the continue link, the consent form, the next step. */
export function toSearchRecord(params: AuthorizationParams): Record<string, string> {
  const out: Record<string, string> = {
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    response_type: params.responseType,
  };
  if (params.responseMode === "fragment") out.response_mode = "fragment";
  if (params.state !== null) out.state = params.state;
  if (params.scope) out.scope = params.scope;
  if (params.codeChallenge) {
    out.code_challenge = params.codeChallenge;
    out.code_challenge_method = "S256";
  }
  if (params.prompt.length > 0) out.prompt = params.prompt.join(" ");
  if (params.loginHint) out.login_hint = params.loginHint;
  return out;
}
