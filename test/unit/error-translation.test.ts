import { describe, expect, it } from "vitest";
import {
  ApiError,
  errorStatus,
  notFound,
  UNAVAILABLE_RETRY_SECONDS,
  uniqueError,
  validationError,
  type ErrorCode,
} from "@/common/http/errors";
import { consoleFailure, somethingWentWrong } from "@/server/http/console-failure";
import { errorBody } from "@/server/http/error-body";
import { notOwned } from "@/server/surfaces/console/errors";

// The one error type has two translations: to the contract's error body (the API, the driver site,
// the sandbox inbox) and to the console's form errors. Both are pure; these pin what each answers.

describe("errorBody: the one error type → the contract's error body", () => {
  it.each(Object.keys(errorStatus) as ErrorCode[])(
    "%s carries its status from the closed table, the detail twice and the field errors",
    (code) => {
      const fields = [{ fieldName: "label", errorCode: "TOO_LONG" as const, errorDisplay: "label is too long." }];
      expect(errorBody(new ApiError(code, "What went wrong.", fields))).toEqual({
        error: {
          httpStatus: errorStatus[code],
          errorCode: code,
          detail: "What went wrong.",
          errorDisplay: "What went wrong.",
          fieldErrors: fields,
        },
      });
    },
  );

  it("a 409 UNIQUE names its field", () => {
    expect(errorBody(uniqueError("deviceId", "That device is taken.")).error).toEqual({
      httpStatus: 409,
      errorCode: "CANNOTPERSIST",
      detail: "That device is taken.",
      errorDisplay: "That device is taken.",
      fieldErrors: [{ fieldName: "deviceId", errorCode: "UNIQUE", errorDisplay: "That device is taken." }],
    });
  });
});

describe("consoleFailure: the one error type → the console's form errors", () => {
  it("bad fields → 400 with the message and the fields to mark", () => {
    const fields = [{ fieldName: "name", errorCode: "REQUIRED" as const, errorDisplay: "name is required." }];
    expect(consoleFailure(validationError(fields, "Check the highlighted fields."), "a test")).toEqual({
      status: 400,
      body: { error: "Check the highlighted fields.", fieldErrors: fields },
      headers: {},
    });
  });

  it("something the partner may not see → 404 that does not say whether it exists", () => {
    expect(consoleFailure(notOwned("subscription"), "a test")).toEqual({
      status: 404,
      body: { error: "No such subscription in your console.", fieldErrors: [] },
      headers: {},
    });
    expect(consoleFailure(notFound("simulation"), "a test")).toEqual({
      status: 404,
      body: { error: "The requested simulation was not found.", fieldErrors: [] },
      headers: {},
    });
  });

  it("each refusal keeps its status (401, 403, 409, 415)", () => {
    for (const code of ["UNAUTHORIZED", "FORBIDDEN", "CANNOTPERSIST", "UNSUPPORTED_MEDIA_TYPE"] as const) {
      expect(consoleFailure(new ApiError(code, "No."), "a test")).toEqual({
        status: errorStatus[code],
        body: { error: "No.", fieldErrors: [] },
        headers: {},
      });
    }
  });

  it("an unexpected error, or an INTERNAL one, → 500 without its details", () => {
    expect(consoleFailure(new Error("connection refused at 10.0.0.3"), "a test")).toEqual({
      status: 500,
      body: { error: somethingWentWrong, fieldErrors: [] },
      headers: {},
    });
    expect(consoleFailure(new ApiError("INTERNAL", "stack details"), "a test")).toEqual({
      status: 500,
      body: { error: somethingWentWrong, fieldErrors: [] },
      headers: {},
    });
    expect(consoleFailure("a thrown string", "a test")).toEqual({
      status: 500,
      body: { error: somethingWentWrong, fieldErrors: [] },
      headers: {},
    });
  });

  it("the database out of reach → 500 with Retry-After, as the API answers an outage", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(consoleFailure(new Error("Failed query", { cause: refused }), "a test")).toEqual({
      status: 500,
      body: { error: somethingWentWrong, fieldErrors: [] },
      headers: { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS) },
    });
  });
});
