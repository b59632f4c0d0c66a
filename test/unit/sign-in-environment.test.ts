import { describe, expect, it } from "vitest";
import { signInEnvironment } from "@/common/auth/sign-in-environment";

describe("the sign-in form's starting environment", () => {
  it("a link's ?environment= wins, then the remembered one, then production", () => {
    expect(signInEnvironment("sandbox", "production")).toBe("sandbox");
    expect(signInEnvironment("production", "sandbox")).toBe("production");
    expect(signInEnvironment(undefined, "sandbox")).toBe("sandbox");
    expect(signInEnvironment(["sandbox", "production"], undefined)).toBe("sandbox");
    expect(signInEnvironment(undefined, undefined)).toBe("production");
  });

  it("anything else in the link or the cookie is ignored", () => {
    expect(signInEnvironment("SANDBOX", undefined)).toBe("production");
    expect(signInEnvironment("staging", "sandbox")).toBe("sandbox");
    expect(signInEnvironment(undefined, "sandbox; Path=/")).toBe("production");
  });
});
