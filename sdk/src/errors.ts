import type { components } from "./generated/openapi.js";
import { retryAfterSeconds } from "./retry-after.js";

/** The contract's error body: `{"error": {httpStatus, errorCode, detail, errorDisplay, fieldErrors}}`. */
export type ErrorBody = components["schemas"]["Error"];
export type FieldError = NonNullable<ErrorBody["error"]["fieldErrors"]>[number];

/** An API answer that is not 2xx, with the service's error body (docs/api.md#errors). */
export class WaylineError extends Error {
  readonly httpStatus: number;
  readonly errorCode: ErrorBody["error"]["errorCode"] | "UNKNOWN";
  readonly detail: string;
  readonly fieldErrors: FieldError[];
  /** Seconds the service asked to wait (429, and 500 while the database is out of reach). */
  readonly retryAfter: number | null;

  constructor(response: Response, body: unknown) {
    const error = (body as Partial<ErrorBody> | undefined)?.error;
    const detail = error?.detail ?? `HTTP ${response.status}`;
    super(`${response.status} ${error?.errorCode ?? "UNKNOWN"}: ${detail}`);
    this.name = "WaylineError";
    this.httpStatus = response.status;
    this.errorCode = error?.errorCode ?? "UNKNOWN";
    this.detail = detail;
    this.fieldErrors = error?.fieldErrors ?? [];
    this.retryAfter = retryAfterSeconds(response.headers.get("retry-after"));
  }
}

/** An RFC 6749 error from the token endpoint (`invalid_client`, `invalid_grant`, …). */
export class OAuthError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${httpStatus} ${error}${description ? `: ${description}` : ""}`);
    this.name = "OAuthError";
  }
}

/**
 * The data of an openapi-fetch answer, or a WaylineError: `unwrap(await api.GET("/vehicle/"))`.
 * openapi-fetch answers `{data}` or `{error}`; most callers want an exception they can catch by code.
 */
export function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  result: R,
): NonNullable<R["data"]> {
  if (!result.response.ok || result.error !== undefined) throw new WaylineError(result.response, result.error);
  return result.data as NonNullable<R["data"]>;
}
