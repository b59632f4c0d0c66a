import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAccountBody, updateAccountBody } from "@/server/accounts/schemas";
import { pagingActions, pagingQuery } from "@/server/http/paging";
import { toFieldErrors } from "@/server/http/zod-errors";
import { updateVehicleBody } from "@/server/vehicles/schemas";

const fieldErrors = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : toFieldErrors(parsed.error);
};

describe("field errors", () => {
  it("names missing, invalid and too long fields with the API's field codes", () => {
    const errors = fieldErrors(createAccountBody, { lastName: "x".repeat(101), username: "ok.user", password: "long-enough", email: "nope" });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fieldName: "firstName", errorCode: "REQUIRED" }),
        expect.objectContaining({ fieldName: "lastName", errorCode: "TOO_LONG" }),
        expect.objectContaining({ fieldName: "email", errorCode: "INVALID" }),
      ]),
    );
  });
});

describe("update bodies", () => {
  it("ignore nulls and read-only fields, and clear with an empty string", () => {
    const parsed = updateAccountBody.parse({ id: 9, dateCreated: "20200101T000000+0000", firstName: null, email: "", phone: "555-0100" });
    expect(parsed).toEqual({ email: null, phone: "555-0100" });
  });

  it("accept numeric strings for numbers", () => {
    expect(updateVehicleBody.parse({ mileage: "1200.5", autoAssignDevice: "false" })).toEqual({ mileage: 1200.5, autoAssignDevice: false });
    expect(updateVehicleBody.safeParse({ mileage: "12abc" }).success).toBe(false);
  });
});

describe("paging", () => {
  it("defaults to 50 from 0 and caps at 500", () => {
    expect(pagingQuery.parse({})).toEqual({ searchLimit: 50, searchOffset: 0 });
    expect(pagingQuery.safeParse({ searchLimit: "501" }).success).toBe(false);
  });

  it("links next and previous with absolute URIs", () => {
    const url = new URL("http://host/v1/api/vehicle/?searchLimit=10&searchOffset=10");
    const actions = pagingActions(url, { limit: 10, offset: 10 }, 25);
    expect(actions.map((a) => [a.name, a.uri])).toEqual([
      ["next", "http://host/v1/api/vehicle/?searchLimit=10&searchOffset=20"],
      ["previous", "http://host/v1/api/vehicle/?searchLimit=10&searchOffset=0"],
    ]);
    expect(pagingActions(url, { limit: 10, offset: 0 }, 10)).toEqual([]);
  });
});
