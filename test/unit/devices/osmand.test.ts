import { describe, expect, it } from "vitest";
import { dataPointsOf } from "@/server/devices/protocols/data-points";
import { type OsmAndRequest, parseOsmAndRequest } from "@/server/devices/protocols/osmand/request";
import { OSMAND_TRACCAR_CLIENT } from "@/test/helpers/device-captures";

// Real requests from traccar/traccar, src/test/java/org/traccar/protocol/OsmAndProtocolDecoderTest.java:
// the query-string forms of OsmAnd and Traccar Client (the first in test/helpers/device-captures.ts, which the encoder's
// tests share), and Traccar Client 9's JSON bodies.

const now = new Date("2026-12-07T12:00:00Z");
const get = (url: string): OsmAndRequest => ({ method: "GET", url, contentType: null, body: new Uint8Array() });
const post = (contentType: string | null, body: string): OsmAndRequest => ({
  method: "POST",
  url: "/",
  contentType,
  body: new TextEncoder().encode(body),
});

function parseOne(request: OsmAndRequest) {
  const parsed = parseOsmAndRequest(request, now);
  if ("refused" in parsed) throw new Error(parsed.refused);
  expect(parsed.records).toHaveLength(1);
  return parsed.records[0]!;
}

const JSON_DRIVING =
  '{"location":{"event":"motionchange","is_moving":false,"uuid":"0e9a2473-a9a7-4c00-997b-fb97d2154e75",' +
  '"timestamp":"2021-07-21T08:06:34.444Z","odometer":0,"coords":{"latitude":-6.1148096,' +
  '"longitude":106.6837015,"accuracy":3.8,"speed":18.67,"speed_accuracy":0.26,"heading":63,' +
  '"heading_accuracy":0.28,"altitude":35.7,"altitude_accuracy":3.8},"activity":{"type":"still",' +
  '"confidence":100},"battery":{"is_charging":false,"level":0.79},"extras":{}},' +
  '"device_id":"8737767034"}';
const JSON_EXTRAS =
  '{"location":{"timestamp":"2025-06-15T13:45:12.862Z","coords":{"latitude":37.4219983,' +
  '"longitude":-122.084,"accuracy":5,"speed":0,"heading":-1,"altitude":5},"is_moving":false,' +
  '"odometer":0,"event":"motionchange","battery":{"level":1,"is_charging":false},' +
  '"activity":{"type":"still"},"extras":{"device_string_test":"long_device_id","device_bool_test":true,' +
  '"device_bool_false_test":false,"device_integer_test":1,"device_double_test":1.345,' +
  '"device_very_long_double_test":1763636.3442},"_":"&id=48241179&lat=37.4219983&lon=-122.084&timestamp' +
  '=2025-06-15T13:45:12.862Z&"},"device_id":"48241179"}';
const JSON_UNKNOWNS =
  '{"location":{"extras":{},"mock":true,"coords":{"speed_accuracy":-1,"speed":-1,' +
  '"longitude":-122.406417,"ellipsoidal_altitude":0,"floor":null,"heading_accuracy":-1,' +
  '"latitude":37.785834000000001,"accuracy":5,"altitude_accuracy":-1,"altitude":0,"heading":-1},' +
  '"is_moving":false,"age":188,"odometer":0,"uuid":"2FB04C65-99CF-42AB-8DD3-EBCB4B108BF8",' +
  '"event":"motionchange","battery":{"level":-1,"is_charging":false},"activity":{"type":"unknown",' +
  '"confidence":100},"timestamp":"2025-05-09T04:11:30.579Z"},"device_id":"658765"}';

describe("OsmAnd query string", () => {
  it("Traccar Client's parameters: id, seconds, position, knots as mph, bearing, ignition, the rest as DEVICE_", () => {
    const record = parseOne(get(OSMAND_TRACCAR_CLIENT));
    expect(record).toMatchObject({
      deviceId: "123456789012345",
      ignition: true,
      speedKnots: 40,
      course: 7.19889788244,
    });
    expect(record.fixTime.toISOString()).toBe("2017-09-07T05:56:50.000Z");
    expect(dataPointsOf(record)).toEqual([
      { key: "GEN_WAYPOINT", value: "40.723295,-74.006141" },
      { key: "GEN_SPEED", value: "46" }, // 40 knots is 46.03 mph
      { key: "GEN_HEADING", value: "7.2" },
      { key: "DEVICE_RPM", value: "933" },
      { key: "DEVICE_FUEL", value: "24" },
    ]);
  });

  it("timestamps in milliseconds, ISO 8601 and yyyy-MM-dd HH:mm:ss (UTC); none is the time received", () => {
    const ms = parseOne(
      get("/?id=902064&lat=42.06288&lon=-88.23412&timestamp=1442068686579&hdop=6.0&altitude=224.0&speed=0.0"),
    );
    expect(ms.fixTime.toISOString()).toBe("2015-09-12T14:38:06.579Z");
    expect(ms).toMatchObject({ altitude: 224, attributes: { HDOP: 6 } });
    const iso = parseOne(
      get(
        "/?id=902064&lat=42.06288&lon=-88.23412&timestamp=2016-01-27T18%3A55%3A47Z&hdop=6.0&altitude=224.0&speed=0.0",
      ),
    );
    expect(iso.fixTime.toISOString()).toBe("2016-01-27T18:55:47.000Z");
    const spaced = parseOne(
      get("/?lat=49.60688&lon=6.15788&timestamp=2014-06-04+09%3A10%3A11&altitude=384.7&speed=0.0&id=353861053849681"),
    );
    expect(spaced).toMatchObject({ deviceId: "353861053849681", altitude: 384.7 });
    expect(spaced.fixTime.toISOString()).toBe("2014-06-04T09:10:11.000Z");
    const none = parseOne(get("/?lat=60.0&lon=30.0&speed=0.0&heading=0.0&vacc=0&hacc=0&altitude=0&deviceid=123456"));
    expect(none).toMatchObject({ deviceId: "123456", fixTime: now, position: { latitude: 60, longitude: 30 } });
    expect(none.attributes).toEqual({ VACC: 0, HACC: 0 });
    const zoned = parseOne(get("/?id=1&timestamp=2016-01-27T20:55:47%2B0200"));
    expect(zoned.fixTime.toISOString()).toBe("2016-01-27T18:55:47.000Z");
  });

  it("location=lat,lon; batt as the battery level; repeated parameters kept together", () => {
    const location = parseOne(get("/?id=123456&timestamp=1377177267&location=60.0,30.0"));
    expect(location.position).toEqual({ latitude: 60, longitude: 30 });
    expect(location.fixTime.toISOString()).toBe("2013-08-22T13:14:27.000Z");
    const battery = parseOne(
      get("/?id=861001000719969&lat=41.666667&lon=-0.883333&altitude=350.059479&speed=0.000000&batt=87"),
    );
    expect(dataPointsOf(battery)).toContainEqual({ key: "DEVICE_BATTERY_LEVEL", value: "87" });
    const cells = parseOne(
      get(
        "/?id=123456&timestamp=1377177267&cell=257,02,16,2224&cell=257,02,16,2223,-90&wifi=00-14-22-01-23-45,-80&wifi=00-1C-B3-09-85-15,-70",
      ),
    );
    expect(cells.position).toBeNull();
    expect(cells.attributes).toEqual({
      CELL: "257,02,16,2224;257,02,16,2223,-90",
      WIFI: "00-14-22-01-23-45,-80;00-1C-B3-09-85-15,-70",
    });
  });

  it("the same parameters in a form body, by any method", () => {
    const body = "id=123456&timestamp=1377177267&lat=60.0&lon=30.0&speed=0.0&bearing=0.0&altitude=0&hdop=0.0";
    const record = parseOne(post("application/x-www-form-urlencoded", body));
    expect(record).toMatchObject({ deviceId: "123456", position: { latitude: 60, longitude: 30 }, speedKnots: 0 });
    expect(parseOne({ ...post(null, body), method: "PUT" }).deviceId).toBe("123456");
  });

  it("refuses a request without id, numbers that are not numbers, a bad time, half a position", () => {
    const refused = (url: string) => parseOsmAndRequest(get(url), now);
    expect(refused("/?timestamp=1377177267&lat=60.0&lon=30.0")).toEqual({ refused: "no id or deviceid" });
    expect(refused("/?id=1&lat=north&lon=30")).toEqual({ refused: "lat is not a number", deviceId: "1" });
    expect(refused("/?id=1&speed=fast")).toEqual({ refused: "speed is not a number", deviceId: "1" });
    expect(refused("/?id=1&timestamp=yesterday")).toEqual({
      refused: "timestamp yesterday is not a time",
      deviceId: "1",
    });
    expect(refused("/?id=1&timestamp=2016-13-45T10:00:00Z")).toEqual({
      refused: "timestamp 2016-13-45T10:00:00Z is not a time",
      deviceId: "1",
    });
    expect(refused("/?id=1&lat=60")).toEqual({ refused: "lat without lon, or lon without lat", deviceId: "1" });
    expect(refused("/?id=1&location=60")).toEqual({ refused: "location is not lat,lon", deviceId: "1" });
    expect(refused("/?id=1&ignition=maybe")).toEqual({ refused: "ignition is not true or false", deviceId: "1" });
  });

  it("refuses an impossible coordinate and a time more than 24 h ahead; 0,0 is no position", () => {
    expect(parseOsmAndRequest(get("/?id=1&lat=91&lon=30"), now)).toEqual({
      refused: "impossible latitude",
      deviceId: "1",
    });
    expect(parseOsmAndRequest(get("/?id=1&lat=45&lon=180.5"), now)).toEqual({
      refused: "impossible longitude",
      deviceId: "1",
    });
    const ahead = Math.floor(now.getTime() / 1000) + 25 * 3600;
    expect(parseOsmAndRequest(get(`/?id=1&timestamp=${ahead}`), now)).toEqual({
      refused: "record dated more than 24 h ahead",
      deviceId: "1",
    });
    expect(parseOne(get("/?id=1&lat=0&lon=0")).position).toBeNull();
  });
});

describe("OsmAnd JSON (Traccar Client 9)", () => {
  it("location.coords: speed in m/s, heading, altitude, accuracy; battery, motion, event, activity", () => {
    const record = parseOne(post("application/json", JSON_DRIVING));
    expect(record.deviceId).toBe("8737767034");
    expect(record.fixTime.toISOString()).toBe("2021-07-21T08:06:34.444Z");
    expect(record).toMatchObject({ course: 63, altitude: 35.7, accuracy: 3.8, odometerMeters: 0 });
    expect(record.attributes).toEqual({
      BATTERY_LEVEL: 79,
      CHARGE: false,
      MOTION: false,
      EVENT: "motionchange",
      ACTIVITY: "still",
    });
    expect(dataPointsOf(record).slice(0, 4)).toEqual([
      // toFixed(6) of the doubles: the one nearest 106.6837015 lies just below it.
      { key: "GEN_WAYPOINT", value: "-6.114810,106.683701" },
      { key: "GEN_SPEED", value: "41.8" }, // 18.67 m/s is 41.76 mph
      { key: "GEN_HEADING", value: "63" },
      { key: "GEN_ODOMETER", value: "0" },
    ]);
  });

  it("extras become DEVICE_ points by their names; -1 (unknown) speed, heading and battery are left out", () => {
    const extras = parseOne(post("application/json; charset=utf-8", JSON_EXTRAS));
    expect(extras.attributes).toMatchObject({
      DEVICE_STRING_TEST: "long_device_id",
      DEVICE_BOOL_TEST: true,
      DEVICE_BOOL_FALSE_TEST: false,
      DEVICE_INTEGER_TEST: 1,
      DEVICE_DOUBLE_TEST: 1.345,
      DEVICE_VERY_LONG_DOUBLE_TEST: 1763636.3442,
      BATTERY_LEVEL: 100,
    });
    expect(extras.course).toBeUndefined();
    expect(dataPointsOf(extras)).toContainEqual({ key: "DEVICE_DEVICE_STRING_TEST", value: "long_device_id" });

    const unknowns = parseOne(post(null, JSON_UNKNOWNS));
    expect(unknowns.position).toEqual({ latitude: 37.785834000000001, longitude: -122.406417 });
    expect(unknowns.speedKnots).toBeUndefined();
    expect(unknowns.course).toBeUndefined();
    expect(unknowns.attributes.BATTERY_LEVEL).toBeUndefined();
  });

  it("refuses a body that is not JSON, without location or device_id, or with a bad time", () => {
    const refused = (body: string) => parseOsmAndRequest(post("application/json", body), now);
    expect(refused("{")).toEqual({ refused: "a body that is not JSON" });
    expect(refused('{"device_id":"1"}')).toEqual({ refused: "no location" });
    expect(refused('{"location":{"coords":{"latitude":1,"longitude":2}}}')).toEqual({ refused: "no device_id" });
    expect(refused('{"location":{"timestamp":"soon"},"device_id":"1"}')).toEqual({
      refused: "location.timestamp is not a time",
      deviceId: "1",
    });
    expect(refused('{"location":{"coords":{"latitude":1}},"device_id":"1"}')).toEqual({
      refused: "coords without latitude and longitude",
      deviceId: "1",
    });
    expect(refused('{"location":{"coords":{"latitude":-91,"longitude":2}},"device_id":"1"}')).toEqual({
      refused: "impossible latitude",
      deviceId: "1",
    });
  });
});
