import { describe, expect, it } from "vitest";
import { isWellFormedRequestId, requestIdFrom } from "@/server/http/request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it.each([
    "a",
    "0f8c3e9a-1b2c-4d5e-8f90-123456789abc",
    "01HZX3M9Q4K7R2T8V6W5Y0A1B2",
    "trace:span.1_2-3",
    "YWJj+ZGVm/Zw==",
    "x".repeat(128),
  ])("%s is kept", (id) => {
    expect(isWellFormedRequestId(id)).toBe(true);
    expect(requestIdFrom(id)).toBe(id);
  });

  it.each([
    ["empty", ""],
    ["129 characters", "x".repeat(129)],
    ["a space", "a b"],
    ["a line break", "a\nb"],
    ["markup", "<script>"],
    ["a quote", 'a"b'],
    ["non-ASCII", "ïd"],
    ["two headers joined by Node", "a, b"],
  ])("%s is replaced by a fresh UUID", (_, id) => {
    expect(isWellFormedRequestId(id)).toBe(false);
    expect(requestIdFrom(id)).toMatch(UUID);
  });

  it("no header, or the header twice, gets a new id each time", () => {
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
    expect(requestIdFrom(["a", "b"])).toMatch(UUID);
  });
});
