import type { ApiError, ApiErrorBody } from "@/common/http/errors";

// The one translation of the error type to the contract's error body (docs/api.md#errors), used by
// every wrapper that answers in it: the API (with-api.ts), the driver site (with-driver.ts), the
// sandbox inbox and the OpenAPI document (with-api-errors.ts), the 405s, and npm start's answers
// before Next.js (before-next.ts). The OpenAPI examples are written by it too.
export function errorBody(error: ApiError): ApiErrorBody {
  return {
    error: {
      httpStatus: error.status,
      errorCode: error.code,
      detail: error.detail,
      errorDisplay: error.detail,
      fieldErrors: error.fieldErrors,
    },
  };
}
