import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Browser } from "@/test/helpers/browser";
import { downloadBytes, driverWithBigExport, DRIVER_PASSWORD, stalledDownload } from "@/test/helpers/driver-download";
import { startApp, type RunningApp } from "@/test/helpers/processes";

// One export at a time per account across a fleet (docs/driver-site.md#download-my-data): while the
// suite's service writes an account's export, a second app process on the same PostgreSQL refuses
// another of that account with 429, and runs it once the first has ended. PostgreSQL only: the
// embedded database serves HTTP from one process (export-one-at-a-time.test.ts covers it there).

let other: RunningApp | undefined;

beforeAll(async () => {
  if (inject("embedded")) return;
  other = await startApp({
    name: "export-fleet",
    databaseUrl: inject("databaseUrl"),
    extraEnv: { SIMULATOR: "0" },
  });
}, 240_000);

afterAll(async () => {
  await other?.stop();
});

describe.skipIf(inject("embedded"))("GET /me/export on two processes", () => {
  it("an export running on one process → 429 on the other for the same account; after it ends, the other runs one", async () => {
    const driver = await driverWithBigExport();
    const here = new Browser();
    expect((await here.signIn("sandbox", driver.account.username, DRIVER_PASSWORD)).problem).toBeNull();
    const there = new Browser(undefined, other!.baseUrl);
    expect((await there.signIn("sandbox", driver.account.username, DRIVER_PASSWORD)).problem).toBeNull();

    const first = await stalledDownload(here, "/me/export");
    expect(first.status).toBe(200);
    try {
      const refused = await downloadBytes(there, "/me/export", other!.baseUrl);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBeTruthy();
    } finally {
      await first.finish();
    }
    const next = await downloadBytes(there, "/me/export", other!.baseUrl);
    expect(next.status).toBe(200);
    expect(next.headers.get("content-type")).toBe("application/zip");
  }, 120_000);
});
