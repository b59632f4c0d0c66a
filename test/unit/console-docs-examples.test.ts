import { describe, expect, it } from "vitest";
import { curlFor, sample, typeOf } from "@/components/docs/examples";

describe("API reference examples", () => {
  it("a sample body holds the required members only, with readable values", () => {
    const schema = { type: "object", required: ["firstName", "password"], properties: { firstName: { type: "string" }, password: { type: "string" }, email: { type: "string" } } };
    expect(sample(schema)).toEqual({ firstName: "Ada", password: "s3cret-pass" });
  });

  it("enums, consts, nullable unions and arrays get values of their type", () => {
    expect(sample({ enum: ["INSIDE", "OUTSIDE"] })).toBe("INSIDE");
    expect(sample({ anyOf: [{ type: "null" }, { type: "integer" }] })).toBe(1);
    expect(sample({ type: "array", items: { type: "number" } }, "latitude")).toEqual([39.96]);
    expect(typeOf({ type: ["string", "null"] })).toBe("string | null");
    expect(typeOf({ type: "array", items: { enum: ["SUN", "MON"] } })).toBe('"SUN" | "MON"[]');
  });

  it("a curl line names path parameters as shell variables and quotes the body for the shell", () => {
    expect(curlFor({ method: "POST", base: "http://localhost:3000/sandbox/api", path: "/vehicle/{vehicleId}/dataSet/", body: { label: "Bob's car" } })).toBe(
      `curl -s -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"label":"Bob'\\''s car"}' "http://localhost:3000/sandbox/api/vehicle/$VEHICLE_ID/dataSet/"`,
    );
    expect(curlFor({ method: "GET", base: "https://x.example/v1/api", path: "/account/" })).toBe(`curl -s -H "Authorization: Bearer $TOKEN" "https://x.example/v1/api/account/"`);
  });
});
