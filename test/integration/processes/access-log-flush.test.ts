import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "@/test/helpers/api";
import { Browser } from "@/test/helpers/browser";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { partnerAccount } from "@/test/helpers/partner-account";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The access log is written off the request's path and flushed on a clean stop
// (docs/operations.md#the-access-log): a service of its own, with its delivery worker on and a
// flush interval far beyond the test, answers API reads and delivers a WAYPOINT webhook to a real
// HTTPS receiver; nothing is written yet; SIGTERM (a restart) writes it all, and the driver's CSV
// then shows exact counts, the delivery included (works on both databases: read over HTTP).

let own: AppWithOwnDatabase;

beforeAll(async () => {
  own = await startAppWithOwnDatabase("access-log-flush", { WORKER: "on", ACCESS_LOG_FLUSH_SECONDS: "300" });
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

async function accessCsv(browser: Browser) {
  const page = await browser.get("/me/access-log");
  expect(page.status, page.text).toBe(200);
  const [, ...rows] = page.text.split("\r\n").filter((l) => l !== "");
  const totals: Record<string, number> = {};
  for (const row of rows) {
    const fields = row.split(",");
    totals[fields[2]!] = (totals[fields[2]!] ?? 0) + Number(fields[4]);
  }
  return totals;
}

describe("access log flush", () => {
  it("counts noted in memory (answers and a delivered webhook) are written on SIGTERM, none lost", async () => {
    const { app, receiver } = own;
    const api = `${app.baseUrl}/sandbox/api`;
    const { clientToken, accountId, token } = await partnerAccount(own);
    const vehicle = await request("POST", `${api}/vehicle/`, { token, json: { label: "Flushed car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;
    const sub = await request("POST", `${api}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
      token: clientToken,
      json: { postUrl: `${receiver.url}/hooks/flush` },
    });
    expect(sub.status, sub.text).toBe(200);
    const posted = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
      token,
      json: dataSet(new Date(Date.now() - 60_000), "RUNNING", [waypoint(39.9612, -82.9988)]),
    });
    expect(posted.status, posted.text).toBe(200);
    // The webhook arrives (one WAYPOINT event: location); the worker notes it once it is recorded.
    await waitFor(() => Promise.resolve(receiver.on("/hooks/flush").length === 1), {
      what: "the webhook",
    });
    for (const path of ["/account/", "/vehicle/", `/vehicle/${vehicleId}/data/`])
      expect((await request("GET", `${api}${path}`, { token })).status).toBe(200);

    const browser = new Browser(undefined, app.baseUrl);
    const username = (await request("GET", `${api}/account/`, { token })).body.account[0].username as string;
    expect((await browser.signIn("sandbox", username, "correct-horse-1")).problem).toBeNull();
    // Nothing written yet: the next flush is minutes away.
    expect(await accessCsv(browser)).toEqual({});

    await app.restart();
    const browserAfter = new Browser(undefined, app.baseUrl);
    expect((await browserAfter.signIn("sandbox", username, "correct-horse-1")).problem).toBeNull();
    // Identity: the account's creation and two GET /account/. Vehicle data: the vehicle's creation
    // and GET /vehicle/. Location: GET /vehicle/ (its last waypoint), GET data (one waypoint, no
    // other key) and the delivered WAYPOINT event.
    expect(await accessCsv(browserAfter)).toEqual({ identity: 3, vehicle_data: 2, location: 3 });
    expect(accountId).toBeGreaterThan(0);
  }, 120_000);
});
