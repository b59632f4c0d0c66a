// @module-tag embedded
import { describe, expect, inject, it } from "vitest";
import { runScript } from "@/test/helpers/processes";
import { clientToken, testSql, tokenRequest, uniqueName } from "@/test/helpers/api";

const scriptEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: inject("dataDir"), NEXT_TELEMETRY_DISABLED: "1" };
  if (inject("embedded")) delete env.DATABASE_URL;
  else env.DATABASE_URL = inject("databaseUrl");
  return env;
};

describe("npm run app:create", () => {
  it("--json prints exactly one JSON object with working sandbox and production credentials", async () => {
    const { stdout } = await runScript(
      "app-create.ts",
      ["--name", "CLI made", "--redirect-uri", "https://cli.example/cb", "--json"],
      scriptEnv(),
    );
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const app = JSON.parse(lines[0]!);
    expect(Object.keys(app).sort()).toEqual(["name", "production", "sandbox", "signingSecret"]);
    // Standard Webhooks key: whsec_ + base64 of 32 random bytes.
    expect(app.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(app.name).toBe("CLI made");
    expect(app.sandbox.clientId).toMatch(/^wl_sbx_/);
    expect(app.production.clientId).toMatch(/^wl_live_/);
    expect(await clientToken(app.sandbox)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await clientToken(app.production)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The sandbox endpoint only serves sandbox clients.
    const wrongEnv = await tokenRequest(
      { grant_type: "client_credentials" },
      { basic: app.production, url: `${inject("baseUrl")}/sandbox/oauth/token` },
    );
    expect(wrongEnv.status).toBe(401);
  });

  it("registers a redirect URI with a fragment (the original's single-page apps), kept exactly as given", async () => {
    const name = uniqueName("Legacy SPA");
    await runScript(
      "app-create.ts",
      [
        "--name",
        name,
        "--redirect-uri",
        "http://127.0.0.1:8080/#/authorized",
        "--redirect-uri",
        "https://spa.example/#/authorized?tenant=a",
        "--json",
      ],
      scriptEnv(),
    );
    const [row] = await testSql()`select redirect_uris from partner_apps where name = ${name}`;
    expect(row!.redirect_uris).toEqual([
      "http://127.0.0.1:8080/#/authorized",
      "https://spa.example/#/authorized?tenant=a",
    ]);
  });

  it("refuses a relative or javascript: redirect URI, creating nothing", async () => {
    const name = uniqueName("Bad");
    await expect(
      runScript("app-create.ts", ["--name", name, "--redirect-uri", "/#/authorized", "--json"], scriptEnv()),
    ).rejects.toThrow(/absolute/);
    await expect(
      runScript("app-create.ts", ["--name", name, "--redirect-uri", "javascript:alert(1)", "--json"], scriptEnv()),
    ).rejects.toThrow(/not allowed/);
    expect(await testSql()`select id from partner_apps where name = ${name}`).toHaveLength(0);
  });
});
