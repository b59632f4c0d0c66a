import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAccountBody, updateAccountBody } from "@/common/accounts/schemas";
import { numberish } from "@/common/http/fields";
import { pagingActions, pagingQuery } from "@/common/http/paging";
import { toFieldErrors } from "@/common/http/zod-errors";
import { simulationBody } from "@/server/simulator/schemas";
import { updateVehicleBody } from "@/server/vehicles/schemas";

// Parsed as parseOrThrow parses (with the offending values in the issues).
const fieldErrors = (schema: z.ZodType, input: unknown) => {
  const parsed = schema.safeParse(input, { reportInput: true });
  return parsed.success ? [] : toFieldErrors(parsed.error);
};
const codes = (schema: z.ZodType, input: unknown) =>
  Object.fromEntries(fieldErrors(schema, input).map((e) => [e.fieldName, e.errorCode]));

describe("field errors", () => {
  it("names missing, invalid and too long fields with the API's field codes", () => {
    const errors = fieldErrors(createAccountBody, {
      lastName: "x".repeat(101),
      username: "ok.user",
      password: "long-enough",
      email: "nope",
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ fieldName: "firstName", errorCode: "REQUIRED" }),
        expect.objectContaining({ fieldName: "lastName", errorCode: "TOO_LONG" }),
        expect.objectContaining({ fieldName: "email", errorCode: "INVALID" }),
      ]),
    );
  });
});

describe("a missing field is REQUIRED whatever its schema", () => {
  const kinds = z.object({
    text: z.string(),
    choice: z.enum(["a", "b"], "Must be a or b."),
    constant: z.literal("x"),
    number: numberish,
    point: z.object({ latitude: numberish }),
    shape: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("dot") }),
      z.object({ kind: z.literal("line"), length: z.number() }),
    ]),
  });
  const valid = {
    text: "t",
    choice: "a",
    constant: "x",
    number: 1,
    point: { latitude: 2 },
    shape: { kind: "line", length: 3 },
  };

  it("a plain type, an enum, a literal, a union, a nested member, a discriminator and a member of the chosen variant", () => {
    expect(codes(kinds, valid)).toEqual({});
    expect(codes(kinds, {})).toEqual({
      text: "REQUIRED",
      choice: "REQUIRED",
      constant: "REQUIRED",
      number: "REQUIRED",
      point: "REQUIRED",
      shape: "REQUIRED",
    });
    expect(codes(kinds, { ...valid, point: {}, shape: {} })).toEqual({
      "point.latitude": "REQUIRED",
      "shape.kind": "REQUIRED",
    });
    expect(codes(kinds, { ...valid, shape: { kind: "line" } })).toEqual({ "shape.length": "REQUIRED" });
  });

  it("a value of the wrong kind stays INVALID", () => {
    expect(
      codes(kinds, {
        ...valid,
        text: 5,
        choice: "c",
        constant: "y",
        number: "many",
        point: { latitude: null },
        shape: { kind: "circle" },
      }),
    ).toEqual({
      text: "INVALID",
      choice: "INVALID",
      constant: "INVALID",
      number: "INVALID",
      "point.latitude": "INVALID",
      "shape.kind": "INVALID",
    });
  });

  it("POST /vehicle/{id}/simulation/ without mode names mode REQUIRED", () => {
    expect(
      codes(simulationBody, { start: { latitude: 40, longitude: -83 }, end: { latitude: 40.1, longitude: -83 } }),
    ).toEqual({ mode: "REQUIRED" });
  });
});

describe("update bodies", () => {
  it("ignore nulls and read-only fields, and clear with an empty string", () => {
    const parsed = updateAccountBody.parse({
      id: 9,
      dateCreated: "20200101T000000+0000",
      firstName: null,
      email: "",
      phone: "555-0100",
    });
    expect(parsed).toEqual({ email: null, phone: "555-0100" });
  });

  it("accept numeric strings for numbers", () => {
    expect(updateVehicleBody.parse({ mileage: "1200.5", autoAssignDevice: "false" })).toEqual({
      mileage: 1200.5,
      autoAssignDevice: false,
    });
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
