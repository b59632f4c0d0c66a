import { describe, expect, it } from "vitest";
import { redirectUriProblem } from "@/server/apps/redirect-uris";

describe("registrable redirect URIs (docs/oauth.md)", () => {
  it("allows https, custom schemes and loopback http in both environments", () => {
    for (const uri of ["https://partner.example/cb", "carlocator://oauth", "http://localhost:8080/cb", "http://127.0.0.1/cb", "http://[::1]:9000/cb"]) {
      expect(redirectUriProblem(uri, "production"), uri).toBeNull();
      expect(redirectUriProblem(uri, "sandbox"), uri).toBeNull();
    }
  });

  it("allows other http only in the sandbox", () => {
    expect(redirectUriProblem("http://partner.example/cb", "sandbox")).toBeNull();
    expect(redirectUriProblem("http://partner.example/cb", "production")).toMatch(/loopback/);
  });

  it("refuses fragments, relative URIs and script schemes", () => {
    expect(redirectUriProblem("https://partner.example/cb#x", "sandbox")).toMatch(/fragment/);
    expect(redirectUriProblem("/cb", "sandbox")).toMatch(/absolute/);
    expect(redirectUriProblem("javascript:alert(1)", "sandbox")).toMatch(/not allowed/);
  });
});
