// @module-tag embedded
import { describe, expect, it } from "vitest";
import { api } from "@/test/helpers/api";
import { authorizeUrl } from "@/test/helpers/browser";
import { codeRequest, exchangeCode, newDriver, webApp } from "@/test/helpers/oauth-flow";
import { redirectParams } from "@/test/helpers/browser";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The driver's location pause (docs/driver-site.md#pause-location), through the driver site's
// switch and the API: positions not stored, other keys stored, lastWaypoint kept, location
// subscriptions silent, and one click to resume. Ingest is involved: both databases.

describe("location pause", () => {
  it("while paused: no position stored, the rest is, lastWaypoint kept, WAYPOINT silent; resumed: all again", async () => {
    const { browser } = await newDriver();
    const answer = await browser.authorizeAndAllow(authorizeUrl(codeRequest(webApp())));
    const token = (await exchangeCode(webApp(), redirectParams(answer).code!)).body.access_token as string;
    const a = api("sandbox");
    const id = (await a.post("/vehicle/", { label: "Paused car" }, token)).body.vehicle.vehicleId as number;
    expect((await a.post(`/vehicle/${id}/eventSubscription/WAYPOINT/`, {}, token)).status).toBe(200);
    const at = (m: number) => new Date(Date.now() - (30 - m) * 60_000);
    const post = (m: number, lat: number) =>
      a.post(
        `/vehicle/${id}/dataSet/`,
        dataSet(at(m), "ON", [waypoint(lat, -83), { key: "GEN_SPEED", value: String(m) }]),
        token,
      );
    const notes = async () => (await a.get(`/vehicle/${id}/eventNotification/`, token)).body.notifications.length;
    const points = async (key: string) => (await a.get(`/vehicle/${id}/data/?key=${key}`, token)).body.data.length;

    expect((await post(1, 40)).status).toBe(200);
    expect(await notes()).toBe(1);

    const paused = await browser.request("POST", `/me/vehicles/${id}/location-pause`, { json: { paused: true } });
    expect(paused.status, paused.text.slice(0, 300)).toBe(200);
    expect(JSON.parse(paused.text).vehicle.locationPaused).toBe(true);

    const during = await post(2, 41);
    expect(during.status).toBe(200);
    expect(during.body.dataSet.datum.map((d: { key: string }) => d.key)).toEqual(["GEN_SPEED"]);
    const vehicle = (await a.get(`/vehicle/${id}`, token)).body.vehicle;
    expect(vehicle.locationPaused).toBe(true);
    expect(vehicle.lastWaypoint).toMatchObject({ latitude: 40, longitude: -83 });
    expect(await points("GEN_WAYPOINT")).toBe(1);
    expect(await points("GEN_SPEED")).toBe(2);
    expect(await notes()).toBe(1);
    // Read-only to apps: an update body that sets it is ignored.
    const echoed = await a.post(`/vehicle/${id}`, { locationPaused: false, label: "Still paused" }, token);
    expect(echoed.status).toBe(200);
    expect(echoed.body.vehicle.locationPaused).toBe(true);

    const resumed = await browser.request("POST", `/me/vehicles/${id}/location-pause`, { json: { paused: false } });
    expect(JSON.parse(resumed.text).vehicle.locationPaused).toBe(false);
    expect((await post(3, 42)).status).toBe(200);
    expect((await a.get(`/vehicle/${id}`, token)).body.vehicle.lastWaypoint).toMatchObject({ latitude: 42 });
    expect(await points("GEN_WAYPOINT")).toBe(2);
    expect(await notes()).toBe(2);
  });

  it("the switch takes a boolean only, and another driver's vehicle is a 404", async () => {
    const { browser } = await newDriver();
    const bad = await browser.request("POST", `/me/vehicles/1/location-pause`, { json: { paused: "yes" } });
    expect([400, 404]).toContain(bad.status);
    const other = await browser.request("POST", `/me/vehicles/2147483647/location-pause`, { json: { paused: true } });
    expect(other.status).toBe(404);
  });
});
