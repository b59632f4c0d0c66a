import type { Environment } from "@/db/schema";
import { toSearchRecord, type AuthorizationParams } from "@/server/oauth/authorize/request";

// Where the steps of an authorization live. The protocol endpoint is /oauth/authorize (and the
// sandbox's); the page where the driver signs in and decides is one page for both environments,
// since the client id tells the environment.

const CONTINUE_PATH = "/oauth/authorize/continue";
export const DECISION_PATH = "/oauth/authorize/decision";

const authorizeEndpointPath = (environment: Environment) =>
  environment === "sandbox" ? "/sandbox/oauth/authorize" : "/oauth/authorize";

export function continuePath(params: AuthorizationParams): string {
  return `${CONTINUE_PATH}?${new URLSearchParams(toSearchRecord(params))}`;
}

/** Back to the endpoint once the driver has signed in: prompt=login has then been honoured. */
export function resumePath(params: AuthorizationParams, environment: Environment): string {
  const resumed = { ...params, prompt: params.prompt.filter((p) => p !== "login") };
  return `${authorizeEndpointPath(environment)}?${new URLSearchParams(toSearchRecord(resumed))}`;
}
