import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./generated/openapi.js";
import { retryAfterSeconds } from "./retry-after.js";
import type { Environment, TokenSource } from "./tokens.js";

// The typed client (docs/sdk.md): openapi-fetch over the types openapi-typescript generated from the
// service's OpenAPI document, with one fetch that adds the token, renews it once on 401, and waits out
// a 429's Retry-After before trying again.

export type WaylineClient = Client<paths>;

export type WaylineOptions = {
  /** The service's origin, e.g. https://wayline.example. */
  url: string;
  environment?: Environment;
  /** An access token, or a source that renews it (clientCredentials, refreshingTokens). */
  token: string | TokenSource;
  /** How many times a 429 is waited out before it is returned (default 3). */
  maxRetries?: number;
  /** The longest wait a Retry-After may ask for, in seconds, before the 429 is returned instead (default 60). */
  maxRetryAfterSeconds?: number;
  fetch?: (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>;
};

/** The REST API base of an environment: /sandbox/api or /v1/api. */
export const apiBase = (url: string, environment: Environment = "sandbox") =>
  `${url.replace(/\/$/, "")}${environment === "sandbox" ? "/sandbox/api" : "/v1/api"}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A Request that keeps the caller's own AbortSignal. Node's fetch (undici) makes a Request's signal
 * follow the caller's through weak references, and after a garbage collection an abort may no longer
 * reach it (nodejs/undici#4068, nodejs/node#55428): a stream the caller stopped went on reading, and
 * `wayline listen` did not exit on Ctrl-C. Each attempt is sent with the caller's signal itself.
 */
class CallerSignalRequest extends Request {
  readonly callerSignal: AbortSignal | undefined;
  constructor(input: ConstructorParameters<typeof Request>[0], init?: RequestInit) {
    super(input, init);
    this.callerSignal = init?.signal ?? undefined;
  }
}

export function createWayline(options: WaylineOptions): WaylineClient {
  const source: TokenSource =
    typeof options.token === "string" ? { token: async () => options.token as string } : options.token;
  const send = options.fetch ?? ((request: Request, init?: { signal?: AbortSignal }) => fetch(request, init));
  const maxRetries = options.maxRetries ?? 3;
  const maxWait = options.maxRetryAfterSeconds ?? 60;

  const fetchWithPolicy = async (request: Request): Promise<Response> => {
    let refreshed = false;
    for (let retries = 0; ;) {
      const attempt = request.clone();
      attempt.headers.set("authorization", `Bearer ${await source.token()}`);
      const response = await send(attempt, {
        signal: (request as Partial<CallerSignalRequest>).callerSignal ?? request.signal,
      });
      if (response.status === 401 && source.refresh && !refreshed) {
        refreshed = true;
        await response.body?.cancel();
        await source.refresh();
        continue;
      }
      if (response.status === 429 && retries < maxRetries) {
        const wait = retryAfterSeconds(response.headers.get("retry-after")) ?? 1;
        if (wait <= maxWait) {
          retries++;
          await response.body?.cancel();
          await sleep(wait * 1000);
          continue;
        }
      }
      return response;
    }
  };

  return createClient<paths>({
    baseUrl: apiBase(options.url, options.environment),
    fetch: fetchWithPolicy,
    Request: CallerSignalRequest,
  });
}
