import { describe, expect, it } from "vitest";
import { baseUrl, Browser } from "@/test/helpers/browser";

// RFC 8414 authorization server metadata, one document per environment.

async function metadata(path: string) {
  const res = await new Browser().get(path);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  return JSON.parse(res.text);
}

describe("GET /.well-known/oauth-authorization-server", () => {
  it("production: issuer = origin, its endpoints, grants, S256 only", async () => {
    const doc = await metadata("/.well-known/oauth-authorization-server");
    const origin = baseUrl();
    expect(doc).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      response_types_supported: ["code", "token"],
      response_modes_supported: ["query", "fragment"],
      grant_types_supported: ["authorization_code", "implicit", "client_credentials", "refresh_token"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("/sandbox: issuer <origin>/sandbox with the sandbox endpoints", async () => {
    const doc = await metadata("/.well-known/oauth-authorization-server/sandbox");
    const origin = baseUrl();
    expect(doc).toMatchObject({
      issuer: `${origin}/sandbox`,
      authorization_endpoint: `${origin}/sandbox/oauth/authorize`,
      token_endpoint: `${origin}/sandbox/oauth/token`,
      revocation_endpoint: `${origin}/sandbox/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("the advertised endpoints answer", async () => {
    const doc = await metadata("/.well-known/oauth-authorization-server/sandbox");
    expect((await new Browser().get(doc.authorization_endpoint)).status).toBe(400);
    const token = await fetch(doc.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(token.status).toBe(401);
    const revoke = await fetch(doc.revocation_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "token=x",
    });
    expect(revoke.status).toBe(401);
  });
});
