import { describe, expect, it } from "vitest";
import { redirectUriProblem } from "@/server/apps/redirect-uris";

describe("registrable redirect URIs (docs/oauth.md)", () => {
  it("allows https, custom schemes and loopback http in both environments", () => {
    for (const uri of [
      "https://partner.example/cb",
      "carlocator://oauth",
      "http://localhost:8080/cb",
      "http://127.0.0.1/cb",
      "http://[::1]:9000/cb",
    ]) {
      expect(redirectUriProblem(uri, "production"), uri).toBeNull();
      expect(redirectUriProblem(uri, "sandbox"), uri).toBeNull();
    }
  });

  it("allows other http only in the sandbox", () => {
    expect(redirectUriProblem("http://partner.example/cb", "sandbox")).toBeNull();
    expect(redirectUriProblem("http://partner.example/cb", "production")).toMatch(/loopback/);
  });

  it("allows a fragment, as the original's single-page apps registered (http://host:port/#/authorized)", () => {
    for (const uri of [
      "http://127.0.0.1:8080/#/authorized",
      "https://partner.example/app#/authorized?tenant=a",
      "carlocator://oauth#done",
    ]) {
      expect(redirectUriProblem(uri, "production"), uri).toBeNull();
      expect(redirectUriProblem(uri, "sandbox"), uri).toBeNull();
    }
  });

  it("keeps the scheme and host rules for a URI with a fragment", () => {
    expect(redirectUriProblem("http://partner.example/#/authorized", "sandbox")).toBeNull();
    expect(redirectUriProblem("http://partner.example/#/authorized", "production")).toMatch(/loopback/);
    expect(redirectUriProblem("javascript:alert(1)#/authorized", "sandbox")).toMatch(/not allowed/);
    expect(redirectUriProblem("/#/authorized", "sandbox")).toMatch(/absolute/);
  });

  it("refuses relative URIs and script schemes", () => {
    expect(redirectUriProblem("/cb", "sandbox")).toMatch(/absolute/);
    expect(redirectUriProblem("javascript:alert(1)", "sandbox")).toMatch(/not allowed/);
  });
});
