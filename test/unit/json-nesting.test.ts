import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "@/server/http/json-nesting";

// The raw-text depth check that runs before JSON.parse on every request body (server/http/body.ts).
describe("nestsDeeperThan", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

  it("counts arrays and objects alike, up to and past the limit", () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false);
    expect(nestsDeeperThan(nested(4), 3)).toBe(true);
    expect(nestsDeeperThan('{"a":{"b":[{"c":1}]}}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":{"b":[{"c":[1]}]}}', 4)).toBe(true);
  });

  it("measures depth, not the number of brackets", () => {
    const wide = `[${Array.from({ length: 1000 }, () => '{"k":[1,2]}').join(",")}]`;
    expect(nestsDeeperThan(wide, 3)).toBe(false);
    expect(nestsDeeperThan(wide, 2)).toBe(true);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    expect(nestsDeeperThan(JSON.stringify({ a: "[[[[[[{{{{" }), 1)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ a: 'say "[[[[" \\ [[[[' }), 1)).toBe(false);
    expect(nestsDeeperThan(`["\\"", ${nested(3)}]`, 3)).toBe(true);
  });
});
