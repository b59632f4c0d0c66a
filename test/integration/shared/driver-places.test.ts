import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { api, createDriver, testSql } from "@/test/helpers/api";
import { baseUrl, Browser, visibleText } from "@/test/helpers/browser";
import { downloadBytes } from "@/test/helpers/driver-download";
import { addVehicle, apps, uniqueDevice } from "@/test/helpers/fixtures";
import { newDriver } from "@/test/helpers/oauth-flow";
import { simulatedTrip } from "@/test/helpers/telemetry";

// The driver's places over real HTTP with real sessions (docs/driver-site.md#places): create, list,
// rename, reshape and delete; only the account's own; bad shapes and names refused with field
// errors; GeoJSON and KML out and back in; the account's limit; trips named by their places.

type Reply = { status: number; body: any; text: string; headers: Headers };

async function call(browser: Browser, method: string, path: string, json?: unknown, headers?: Record<string, string>) {
  const page = await browser.request(method, path, { json, headers });
  let body: unknown;
  try {
    body = JSON.parse(page.text);
  } catch {
    body = undefined;
  }
  return { status: page.status, body, text: page.text, headers: page.headers } as Reply;
}

const circle = (latitude: number, longitude: number, radius: number) => ({
  kind: "circle",
  center: { latitude, longitude },
  radius,
});
const square = (latitude: number, longitude: number, size = 0.01) => ({
  kind: "polygon",
  polygon: [
    { latitude, longitude },
    { latitude, longitude: longitude + size },
    { latitude: latitude + size, longitude: longitude + size },
    { latitude: latitude + size, longitude },
  ],
});

describe("driver places", () => {
  it("create a circle and a polygon, list, rename, reshape, delete", async () => {
    const { browser } = await newDriver();
    const home = await call(browser, "POST", "/me/places", { name: " Home ", shape: circle(48.8566, 2.3522, 120) });
    expect(home.status, home.text).toBe(200);
    expect(home.body.place).toMatchObject({ name: "Home", shape: circle(48.8566, 2.3522, 120) });
    const work = await call(browser, "POST", "/me/places", { name: "Work", shape: square(48.85, 2.29) });
    expect(work.status, work.text).toBe(200);

    const listed = await call(browser, "GET", "/me/places");
    expect(listed.body.places.map((p: { name: string }) => p.name)).toEqual(["Home", "Work"]);

    const renamed = await call(browser, "PATCH", `/me/places/${work.body.place.id}`, { name: "Office" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.place).toMatchObject({ name: "Office", shape: square(48.85, 2.29) });
    const moved = await call(browser, "PATCH", `/me/places/${home.body.place.id}`, { shape: square(48.86, 2.35) });
    expect(moved.body.place).toMatchObject({ name: "Home", shape: square(48.86, 2.35) });

    expect((await call(browser, "DELETE", `/me/places/${home.body.place.id}`)).status).toBe(200);
    expect((await call(browser, "DELETE", `/me/places/${home.body.place.id}`)).status).toBe(404);
    expect((await call(browser, "GET", "/me/places")).body.places.map((p: { name: string }) => p.name)).toEqual([
      "Office",
    ]);
  });

  it("another driver can neither see nor change a place: 404 like an unknown id", async () => {
    const a = await newDriver();
    const b = await newDriver();
    const made = await call(a.browser, "POST", "/me/places", { name: "Secret", shape: circle(40, -83, 100) });
    const id = made.body.place.id as number;
    expect((await call(b.browser, "GET", "/me/places")).body.places).toEqual([]);
    expect((await call(b.browser, "PATCH", `/me/places/${id}`, { name: "Mine now" })).status).toBe(404);
    expect((await call(b.browser, "DELETE", `/me/places/${id}`)).status).toBe(404);
    expect((await call(a.browser, "GET", "/me/places")).body.places).toMatchObject([{ id, name: "Secret" }]);
    expect((await call(new Browser(), "GET", "/me/places")).status).toBe(401);
  });

  it("bad shapes, names and bodies → 4xx in the API's error shape, naming the field", async () => {
    const { browser } = await newDriver();
    const tiny = await call(browser, "POST", "/me/places", { name: "Tiny", shape: circle(40, -83, 10) });
    expect(tiny.status).toBe(400);
    expect(tiny.body.error.fieldErrors).toEqual([
      { fieldName: "shape.radius", errorCode: "INVALID", errorDisplay: "A circle's radius must be at least 25 m." },
    ]);
    const bowTie = square(40, -83);
    const crossed = [bowTie.polygon[0], bowTie.polygon[2], bowTie.polygon[1], bowTie.polygon[3]];
    const crossing = await call(browser, "POST", "/me/places", {
      name: "Bow tie",
      shape: { kind: "polygon", polygon: crossed },
    });
    expect(crossing.status).toBe(400);
    expect(crossing.body.error.fieldErrors[0].fieldName).toBe("shape.polygon");
    const unnamed = await call(browser, "POST", "/me/places", { shape: circle(40, -83, 100) });
    expect(unnamed.body.error.fieldErrors).toMatchObject([{ fieldName: "name", errorCode: "REQUIRED" }]);
    const long = await call(browser, "POST", "/me/places", { name: "x".repeat(61), shape: circle(40, -83, 100) });
    expect(long.body.error.fieldErrors).toMatchObject([{ fieldName: "name" }]);
    const text = await call(browser, "POST", "/me/places", "name=Home", { "Content-Type": "text/plain" });
    expect(text.status).toBe(415);
    const elsewhere = await call(
      browser,
      "POST",
      "/me/places",
      { name: "Home", shape: circle(40, -83, 100) },
      { Origin: "https://evil.example" },
    );
    expect(elsewhere.status).toBe(403);
    expect((await call(browser, "PATCH", "/me/places/abc", { name: "X" })).status).toBe(404);
    expect((await call(browser, "PUT", "/me/places")).status).toBe(405);
    expect((await call(browser, "GET", "/me/places/export?format=shp")).status).toBe(400);
    expect((await call(browser, "GET", "/me/places")).body.places).toEqual([]);
  });

  it("GeoJSON and KML exports import into another account as the same places", async () => {
    const a = await newDriver();
    await call(a.browser, "POST", "/me/places", { name: "Home & garden", shape: circle(48.8566, 2.3522, 120.5) });
    await call(a.browser, "POST", "/me/places", { name: "Work", shape: square(48.85, 2.29) });
    const original = (await call(a.browser, "GET", "/me/places")).body.places.map(
      ({ name, shape }: { name: string; shape: unknown }) => ({ name, shape }),
    );
    for (const format of ["geojson", "kml"]) {
      const file = await a.browser.request("GET", `/me/places/export?format=${format}`);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-disposition")).toBe(`attachment; filename="wayline-places.${format}"`);
      expect(file.headers.get("content-type")).toBe(
        format === "kml" ? "application/vnd.google-earth.kml+xml" : "application/geo+json",
      );
      const b = await newDriver();
      const imported = await call(b.browser, "POST", "/me/places/import", { content: file.text });
      expect(imported.status, imported.text).toBe(200);
      const got = (await call(b.browser, "GET", "/me/places")).body.places.map(
        ({ name, shape }: { name: string; shape: unknown }) => ({ name, shape }),
      );
      expect(got, format).toEqual(original);
    }
  });

  it("an import with one bad feature adds nothing and names the feature", async () => {
    const { browser } = await newDriver();
    const content = JSON.stringify({
      type: "FeatureCollection",
      features: [
        { type: "Feature", properties: { name: "Good" }, geometry: { type: "Point", coordinates: [2, 48] } },
        {
          type: "Feature",
          properties: { name: "Fine", radius: 100 },
          geometry: { type: "Point", coordinates: [2, 48] },
        },
      ],
    });
    const refused = await call(browser, "POST", "/me/places/import", { content });
    expect(refused.status).toBe(400);
    expect(refused.body.error.fieldErrors).toEqual([
      {
        fieldName: "features.0",
        errorCode: "INVALID",
        errorDisplay:
          "Feature 1 (“Good”): is a Point without properties.radius (metres): a place is a circle or a polygon.",
      },
    ]);
    expect((await call(browser, "GET", "/me/places")).body.places).toEqual([]);
    expect((await call(browser, "POST", "/me/places/import", { content: "not a file" })).status).toBe(400);
  });

  it("an account keeps at most 200 places: the 201st is refused (409) and a file past it adds none", async () => {
    const { browser } = await newDriver();
    const feature = (i: number) => ({
      type: "Feature",
      properties: { name: `Place ${i}`, radius: 50 },
      geometry: { type: "Point", coordinates: [2 + i / 1000, 48] },
    });
    const file = (from: number, n: number) =>
      JSON.stringify({ type: "FeatureCollection", features: Array.from({ length: n }, (_, i) => feature(from + i)) });
    const tooMany = await call(browser, "POST", "/me/places/import", { content: file(0, 201) });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.detail).toBe("You can keep at most 200 places: you have 0, and the file holds 201.");
    expect((await call(browser, "POST", "/me/places/import", { content: file(0, 200) })).status).toBe(200);
    const one = await call(browser, "POST", "/me/places", { name: "One more", shape: circle(40, -83, 100) });
    expect(one.status).toBe(409);
    expect(one.body.error.errorCode).toBe("CANNOTPERSIST");
    expect((await call(browser, "GET", "/me/places")).body.places).toHaveLength(200);
  });

  it("a trip from one place to another reads 'Home → Work' on the vehicle's trips and the trip page", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const vehicle = await addVehicle("sandbox", driver.accessToken, { label: "Commuter", deviceId: uniqueDevice() });
    const browser = new Browser();
    expect((await browser.signIn("sandbox", driver.account.username, "correct-horse-1")).problem).toBeNull();
    // The simulated trip starts at (lat, lon) and ends 0.01° north-east of it.
    const posted = await api("sandbox").post(
      `/vehicle/${vehicle.vehicleId}/dataSet/`,
      simulatedTrip(new Date(Date.now() - 3_600_000), { lat: 45.5, lon: -73.6 }),
      driver.accessToken,
    );
    expect(posted.status, posted.text).toBe(200);
    const tripId = (await api("sandbox").get(`/vehicle/${vehicle.vehicleId}/trip/`, driver.accessToken)).body.trip[0]
      .id as number;
    const vehiclePage = async () => visibleText((await browser.get(`/vehicles/${vehicle.vehicleId}`)).text);
    expect(await vehiclePage()).not.toContain("→");

    await call(browser, "POST", "/me/places", { name: "Home", shape: circle(45.5, -73.6, 60) });
    expect(await vehiclePage()).toContain("Home → elsewhere");
    await call(browser, "POST", "/me/places", { name: "Work", shape: square(45.505, -73.595) });
    expect(await vehiclePage()).toContain("Home → Work");
    const tripPage = visibleText((await browser.get(`/vehicles/${vehicle.vehicleId}/trips/${tripId}`)).text);
    expect(tripPage).toContain("Home → Work");
  });

  it("the data export carries the places as GeoJSON, and deleting the account deletes them", async () => {
    const { browser, username } = await newDriver();
    await call(browser, "POST", "/me/places", { name: "Gym", shape: circle(40, -83, 100) });
    const accountId = (await call(browser, "GET", "/me/account")).body.account.id as number;
    const zip = await downloadBytes(browser, "/me/export");
    expect(zip.status).toBe(200);
    const places = JSON.parse(strFromU8(unzipSync(zip.bytes)["places.geojson"]!));
    expect(places.features).toEqual([
      {
        type: "Feature",
        properties: { name: "Gym", radius: 100 },
        geometry: { type: "Point", coordinates: [-83, 40] },
      },
    ]);
    const count = async () =>
      (await testSql()<{ n: number }[]>`select count(*)::int as n from places where account_id = ${accountId}`)[0]!.n;
    expect(await count()).toBe(1);
    const deleted = await call(browser, "DELETE", "/me/account", { confirmUsername: username }, { Origin: baseUrl() });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    expect(await count()).toBe(0);
  });
});
