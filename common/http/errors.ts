// The one closed table of API error codes and their statuses (docs/api.md#errors), used by the API, the UI and the tests.
export const errorStatus = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CANNOTPERSIST: 409,
  TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof errorStatus;
export type FieldErrorCode = "REQUIRED" | "INVALID" | "TOO_LONG" | "UNIQUE";

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

  toBody(): ApiErrorBody {
    return {
      error: {
        httpStatus: this.status,
        errorCode: this.code,
        detail: this.detail,
        errorDisplay: this.detail,
        fieldErrors: this.fieldErrors,
      },
    };
  }
}

export const notFound = (what = "resource") => new ApiError("NOT_FOUND", `The requested ${what} was not found.`);

export const validationError = (fieldErrors: FieldError[], detail = "The request has invalid fields.") =>
  new ApiError("VALIDATION", detail, fieldErrors);

export const uniqueError = (fieldName: string, display: string) =>
  new ApiError("CANNOTPERSIST", display, [{ fieldName, errorCode: "UNIQUE", errorDisplay: display }]);
