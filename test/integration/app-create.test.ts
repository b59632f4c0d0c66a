import { describe, expect, inject, it } from "vitest";
import { runScript } from "../helpers/processes";
import { clientToken, tokenRequest } from "../helpers/api";

const scriptEnv = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: inject("dataDir"), NEXT_TELEMETRY_DISABLED: "1" };
  if (inject("embedded")) delete env.DATABASE_URL;
  else env.DATABASE_URL = inject("databaseUrl");
  return env;
};

describe("npm run app:create", () => {
  it("--json prints exactly one JSON object with working sandbox and production credentials", async () => {
    const { stdout } = await runScript("app-create.ts", ["--name", "CLI made", "--redirect-uri", "https://cli.example/cb", "--json"], scriptEnv());
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
    const wrongEnv = await tokenRequest({ grant_type: "client_credentials" }, { basic: app.production, url: `${inject("baseUrl")}/sandbox/oauth/token` });
    expect(wrongEnv.status).toBe(401);
  });

  it("refuses a redirect URI with a fragment, creating nothing", async () => {
    await expect(runScript("app-create.ts", ["--name", "Bad", "--redirect-uri", "https://x.example/cb#frag", "--json"], scriptEnv())).rejects.toThrow(/fragment/);
  });
});
