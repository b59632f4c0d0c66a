import { describe, expect, it } from "vitest";
import { encodeOsmAnd, type OsmAndForm } from "@/server/devices/protocols/osmand/encode";
import { type OsmAndRequest, parseOsmAndRequest } from "@/server/devices/protocols/osmand/request";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { OSMAND_TRACCAR_CLIENT } from "@/test/helpers/device-captures";

// The encoder is judged by the parser (request.ts) and by a real request: what it makes from the
// request's record is the request, and what it makes from a record parses to it.

const now = new Date("2026-12-07T12:00:00Z");

function parseOne(request: OsmAndRequest): DeviceRecord {
  const parsed = parseOsmAndRequest(request, now);
  if ("refused" in parsed) throw new Error(parsed.refused);
  expect(parsed.records).toHaveLength(1);
  return parsed.records[0]!;
}

const driving: DeviceRecord = {
  deviceId: "pixel-7 of Ada",
  fixTime: new Date("2026-12-07T11:59:30Z"),
  position: { latitude: 39.961234, longitude: -83.000789 },
  valid: true,
  speedKnots: 23.5,
  course: 271.5,
  altitude: 221.25,
  accuracy: 4.5,
  ignition: true,
  attributes: { BATTERY_LEVEL: 79, RPM: 933, CHARGE: true, MODE: "eco drive", IO_21: 3 },
};

describe("OsmAnd encoder", () => {
  it("a Traccar Client request (Traccar's test), byte for byte from the record it parses to", () => {
    const record = parseOne({ method: "GET", url: OSMAND_TRACCAR_CLIENT, contentType: null, body: new Uint8Array() });
    expect(encodeOsmAnd(record, "query")).toEqual({
      method: "GET",
      url: OSMAND_TRACCAR_CLIENT,
      contentType: null,
      body: new Uint8Array(),
    });
  });

  it("the query string and the form body parse to the record they were made from", () => {
    const forms: OsmAndForm[] = ["query", "form"];
    for (const form of forms) {
      const request = encodeOsmAnd(driving, form, "/osmand");
      expect(request.method).toBe(form === "query" ? "GET" : "POST");
      expect(new URL(request.url, "http://gateway.invalid").pathname).toBe("/osmand");
      expect(parseOne(request)).toEqual(driving);
    }
  });

  it("milliseconds where the time has them, no fix as valid=false, no position as no lat and lon", () => {
    const parked: DeviceRecord = {
      deviceId: "123456",
      fixTime: new Date("2026-12-07T11:59:30.125Z"),
      position: null,
      valid: false,
      ignition: false,
      attributes: {},
    };
    const request = encodeOsmAnd(parked, "query");
    expect(request.url).toBe("/?id=123456&timestamp=1796644770125&ignition=false&valid=false");
    expect(parseOne(request)).toEqual(parked);
    expect(parseOne(encodeOsmAnd(parked, "form"))).toEqual(parked);
  });

  it("Traccar Client 9's JSON body parses to the record, the speed through m/s", () => {
    const request = encodeOsmAnd({ ...driving, attributes: { ...driving.attributes, EVENT: "motionchange" } }, "json");
    expect(request).toMatchObject({ method: "POST", contentType: "application/json" });
    const body = JSON.parse(new TextDecoder().decode(request.body)) as Record<string, Record<string, unknown>>;
    expect(body.device_id).toBe(driving.deviceId);
    expect(body.location).toMatchObject({ battery: { level: 0.79, is_charging: true }, event: "motionchange" });
    const { speedKnots, ...rest } = parseOne(request);
    expect(speedKnots).toBeCloseTo(driving.speedKnots!, 9);
    expect(rest).toEqual({
      ...driving,
      speedKnots: undefined,
      attributes: { ...driving.attributes, EVENT: "motionchange" },
    });
  });

  it("what a form has no parameter for is not sent: an odometer, a voltage, an alarm, a name the parser reads itself", () => {
    const record: DeviceRecord = {
      ...driving,
      odometerMeters: 1000,
      powerMillivolts: 12_600,
      alarm: "sos",
      attributes: { LAT: 1, SPEED: 2, KEPT: 3 },
    };
    const params = new URL(encodeOsmAnd(record, "query").url, "http://gateway.invalid").searchParams;
    expect([...params.keys()]).toEqual([
      "id",
      "timestamp",
      "lat",
      "lon",
      "bearing",
      "speed",
      "altitude",
      "accuracy",
      "ignition",
      "kept",
    ]);
    expect(params.get("lat")).toBe(String(driving.position!.latitude));
  });
});
