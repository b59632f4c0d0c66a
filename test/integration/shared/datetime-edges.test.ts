// @module-tag embedded
import { beforeAll, describe, expect, test } from "vitest";
import { api, apiBase } from "@/test/helpers/api";
import { expectFieldErrors } from "@/test/helpers/fixtures";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { freshApp, type FeedApp } from "@/test/helpers/event-feed-fixture";
import { openSse } from "@/test/helpers/sse";
import { driverWithVehicle } from "@/test/helpers/telemetry";

// The edges of the DateTime range (docs/api.md#datetime): years 1000 to 9999 in UTC, the offset
// applied. A time past either edge is a 400 VALIDATION naming its field on every surface: before,
// year 10000 (99991231T235959-1400) and year 0000 reached PostgreSQL and answered 500, and the
// years 0000–0099 were stored as 1900–1999.

const YEAR_10000 = "99991231T235959-1400";
const YEAR_0050 = "00500101T120000+0000";
const sandbox = api("sandbox");

describe("DateTimes past the range → 400 VALIDATION naming the field", () => {
  let feed: FeedApp;
  let car: Awaited<ReturnType<typeof driverWithVehicle>>;
  beforeAll(async () => {
    [feed, car] = await Promise.all([freshApp(), driverWithVehicle()]);
  }, 60_000);

  test("GET /eventFeed/?since= year 10000 or year 0050 → 400 since INVALID", async () => {
    for (const since of [YEAR_10000, YEAR_0050, "00000101T000000+0000"]) {
      expectFieldErrors(await sandbox.get(`/eventFeed/?since=${since}`, feed.client), { since: "INVALID" });
    }
  });

  test("GET /eventFeed/stream?since= year 10000 → 400 since INVALID in JSON, before the stream opens", async () => {
    const r = await openSse(`${apiBase("sandbox")}/eventFeed/stream?since=${YEAR_10000}`, { token: feed.client });
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expectFieldErrors(
      { status: r.status, headers: r.headers, text: r.text, body: JSON.parse(r.text) },
      {
        since: "INVALID",
      },
    );
  });

  test("GET /vehicle/{id}/trip/ with startTime or endTime in year 10000 or 0050 → 400 naming it", async () => {
    for (const field of ["startTime", "endTime"]) {
      for (const at of [YEAR_10000, YEAR_0050]) {
        const r = await sandbox.get(`/vehicle/${car.vehicleId}/trip/?${field}=${at}`, car.accessToken);
        expectFieldErrors(r, { [field]: "INVALID" });
      }
    }
  });

  test("POST dataSet with year 0050 or year 10000 → 400 timestamp INVALID, nothing stored", async () => {
    const path = `/vehicle/${car.vehicleId}/dataSet/`;
    for (const timestamp of [YEAR_0050, YEAR_10000, "00991231T235959+0000", "10000101T000000+0001"]) {
      const r = await sandbox.post(path, { timestamp, ignitionStatus: "RUNNING", datum: [] }, car.accessToken);
      expectFieldErrors(r, { timestamp: "INVALID" });
      expect(r.body.error.fieldErrors[0].errorDisplay).toMatch(/1000 to 9999/);
    }
    // A datum's own time goes through the same parser.
    const inDatum = await sandbox.post(
      path,
      {
        timestamp: "20260101T000000+0000",
        ignitionStatus: "RUNNING",
        datum: [{ key: "GEN_SPEED", value: 10, timestamp: YEAR_0050 }],
      },
      car.accessToken,
    );
    expect(inDatum.status, inDatum.text).toBe(400);
    expect(inDatum.body.error.fieldErrors.map((f: { errorCode: string }) => f.errorCode)).toEqual(["INVALID"]);
    const listed = await sandbox.get(path, car.accessToken);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.dataSet).toEqual([]);
  });

  test("the lower edge is stored and read back as sent: 10000101T000000+0000 stays in year 1000", async () => {
    const path = `/vehicle/${car.vehicleId}/dataSet/`;
    const posted = await sandbox.post(
      path,
      { timestamp: "10000101T000000+0000", ignitionStatus: "RUNNING", datum: [{ key: "GEN_SPEED", value: 1 }] },
      car.accessToken,
    );
    expect(posted.status, posted.text).toBe(200);
    const read = await sandbox.get(`${path}${posted.body.dataSet.id}`, car.accessToken);
    expect(read.status, read.text).toBe(200);
    expect(read.body.dataSet.timestamp).toBe("10000101T000000+0000");
  });

  test("POST simulation with startTime in year 0050 → 400 startTime INVALID (it was run in 1950)", async () => {
    const r = await sandbox.post(
      `/vehicle/${car.vehicleId}/simulation/`,
      {
        mode: "instant",
        start: { latitude: 39.9612, longitude: -83.0007 },
        end: { latitude: 40.0301, longitude: -83.0195 },
        seed: 1,
        startTime: YEAR_0050,
      },
      car.accessToken,
    );
    expectFieldErrors(r, { startTime: "INVALID" });
  });
});

describe("the console's time fields past the range: its own error display, never 500", () => {
  const partner = new ConsolePartner();
  let appId: string;
  beforeAll(async () => {
    await partner.signUp();
    appId = String((await partner.createApp()).appId);
  }, 60_000);

  test("notification filters from/to in year 0000 or 0050: the page says which filter is not applied", async () => {
    for (const [field, label] of [
      ["from", "From (UTC)"],
      ["to", "To (UTC)"],
    ] as const) {
      for (const at of ["0000-01-01T00:00", "0050-06-01T12:00"]) {
        const page = await partner.get(`/console/apps/${appId}/notifications?env=sandbox&${field}=${at}`);
        expect(page.status, page.text.slice(0, 500)).toBe(200);
        expect(page.text).toContain(`data-field="${field}"`);
        expect(page.text).toContain(`${label}<!-- --> is not applied`);
      }
    }
    // A readable filter shows no such notice.
    const fine = await partner.get(`/console/apps/${appId}/notifications?env=sandbox&from=2026-01-01T00:00`);
    expect(fine.status).toBe(200);
    expect(fine.text).not.toContain("is not applied");
  });

  test("resend-failed with since in year 0000 or 0050 → 400 naming since", async () => {
    for (const since of ["0000-01-01T00:00", "0050-06-01T12:00"]) {
      const r = await partner.action("resend-failed", { appId, environment: "sandbox", since });
      expect(r.status, r.text).toBe(400);
      expect(r.body.fieldErrors).toEqual([expect.objectContaining({ fieldName: "since" })]);
    }
  });
});
