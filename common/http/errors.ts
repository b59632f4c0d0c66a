// The one error type of the service and its closed table of codes and statuses (docs/api.md#errors).
// The domain throws it; the wrappers in server/http translate it, to the API's error body
// (server/http/error-body.ts: the API, the driver site, the sandbox inbox) or to the console's
// form errors (server/http/console-failure.ts). It lives here, below both, so the domain never
// imports the HTTP edge, and the browser may use its types.
export const errorStatus = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CANNOTPERSIST: 409,
  /** An event-feed cursor older than the feed keeps (docs/event-feed.md). */
  CURSOR_EXPIRED: 410,
  /** A shared location's link that ended or expired (docs/driver-site.md#share-a-live-location). */
  GONE: 410,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** Seconds a client is asked to wait (Retry-After) before trying again while the database is out of reach. */
export const UNAVAILABLE_RETRY_SECONDS = 2;
type FieldErrorCode = "REQUIRED" | "INVALID" | "TOO_LONG" | "UNIQUE";

export type FieldError = { fieldName: string; errorCode: FieldErrorCode; errorDisplay: string };

export type ApiErrorBody = {
  error: {
    httpStatus: number;
    errorCode: ErrorCode;
    detail: string;
    errorDisplay: string;
    fieldErrors: FieldError[];
  };
};

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly fieldErrors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.status = errorStatus[code];
  }
}

export const notFound = (what = "resource") => new ApiError("NOT_FOUND", `The requested ${what} was not found.`);

export const validationError = (fieldErrors: FieldError[], detail = "The request has invalid fields.") =>
  new ApiError("VALIDATION", detail, fieldErrors);

export const uniqueError = (fieldName: string, display: string) =>
  new ApiError("CANNOTPERSIST", display, [{ fieldName, errorCode: "UNIQUE", errorDisplay: display }]);
