// @module-tag embedded
import { beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { downloadBytes, driverWithBigExport, signedIn, stalledDownload } from "@/test/helpers/driver-download";
import { expectApiError } from "@/test/helpers/fixtures";
import { driverWithVehicle } from "@/test/helpers/telemetry";

// "Download my data" runs one export at a time per account (docs/driver-site.md#download-my-data):
// while one is being written, another of the same account is 429 RATE_LIMITED with Retry-After;
// another account's is not held up; once the first ends, read to its end or hung up on, the next
// runs. Tagged embedded: on PostgreSQL the claim is an advisory lock, on the embedded database a set
// in the one process (export-one-at-a-time-fleet.test.ts: two processes on one PostgreSQL).

describe("GET /me/export: one at a time per account", () => {
  let big: Awaited<ReturnType<typeof driverWithBigExport>>;
  beforeAll(async () => {
    big = await driverWithBigExport();
  }, 120_000);

  it("a second export of the account while the first is written → 429 RATE_LIMITED with Retry-After; another account's runs; after the first ends, a new one runs", async () => {
    const browser = await signedIn(big.account.username);
    const first = await stalledDownload(browser, "/me/export");
    expect(first.status).toBe(200);
    try {
      const second = await downloadBytes(browser, "/me/export");
      const body = JSON.parse(new TextDecoder().decode(second.bytes));
      expectApiError({ status: second.status, headers: second.headers, text: "", body }, 429, "RATE_LIMITED");
      expect(Number(second.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(body.error.detail).toMatch(/already running/);

      // Another account, at the same time: not held up.
      const other = await driverWithVehicle();
      const theirs = await downloadBytes(await signedIn(other.account.username), "/me/export");
      expect(theirs.status).toBe(200);
      expect(theirs.headers.get("content-type")).toBe("application/zip");
    } finally {
      expect(await first.finish()).toBeGreaterThan(1_000_000);
    }
    // The first was read to its end: the account's next export runs.
    const next = await downloadBytes(browser, "/me/export");
    expect(next.status).toBe(200);
    expect(next.bytes.length).toBeGreaterThan(1_000_000);
  }, 120_000);

  it("an export the driver hung up on frees the account for the next", async () => {
    const browser = await signedIn(big.account.username);
    const first = await stalledDownload(browser, "/me/export");
    expect(first.status).toBe(200);
    expect((await downloadBytes(browser, "/me/export")).status).toBe(429);
    first.abort();
    // The server learns of the hang-up when it next writes: wait for that, not for a time.
    const next = await waitFor(
      async () => {
        const r = await downloadBytes(browser, "/me/export");
        return r.status === 200 ? r : null;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: "an export after the hang-up" },
    );
    expect(next.headers.get("content-type")).toBe("application/zip");
  }, 120_000);
});
