import { describe, expect, it } from "vitest";
import { attributeName, dataPointsOf, recordProblem } from "@/server/devices/protocols/data-points";
import { detectProtocol } from "@/server/devices/protocols/detect";
import type { DeviceRecord } from "@/server/devices/protocols/record";
import { ascii, bytes } from "../../helpers/device-reference";

// First bytes as devices send them: Teltonika's IMEI frame and GT06's login (traccar/traccar,
// TeltonikaProtocolDecoderTest.java and Gt06ProtocolDecoderTest.java), an OsmAnd request line.
const TELTONIKA = "000F313233343536373839303132333435";
const GT06 = "78780D01086471700328358100093F040D0A";
const GT06_LONG = "7979000894000000000338ba0d0a";

describe("detectProtocol", () => {
  it("tells each protocol from its first bytes", () => {
    expect(detectProtocol(bytes(TELTONIKA))).toBe("teltonika");
    expect(detectProtocol(bytes(TELTONIKA + "00000000"))).toBe("teltonika");
    expect(detectProtocol(bytes(GT06))).toBe("gt06");
    expect(detectProtocol(bytes(GT06_LONG))).toBe("gt06");
    expect(detectProtocol(ascii("GET /?id=123456&lat=60.0&lon=30.0 HTTP/1.1\r\n"))).toBe("osmand");
    expect(detectProtocol(ascii("POST / HTTP/1.1\r\n"))).toBe("osmand");
  });

  it("needs more bytes while the opening fits one still", () => {
    expect(detectProtocol(new Uint8Array())).toBe("more");
    for (let n = 1; n < 17; n++) expect(detectProtocol(bytes(TELTONIKA).subarray(0, n))).toBe("more");
    expect(detectProtocol(bytes("78"))).toBe("more");
    for (const text of ["G", "GE", "GET", "GET ", "OPTIONS"]) expect(detectProtocol(ascii(text))).toBe("more");
  });

  it("refuses what fits none", () => {
    expect(detectProtocol(bytes("000F3132334142"))).toBe("unknown"); // an IMEI with letters
    expect(detectProtocol(bytes("0010"))).toBe("unknown");
    expect(detectProtocol(bytes("7877"))).toBe("unknown");
    expect(detectProtocol(bytes("160301"))).toBe("unknown"); // a TLS handshake
    expect(detectProtocol(ascii("get / HTTP/1.1"))).toBe("unknown");
    expect(detectProtocol(ascii("ABCDEFGHIJKLMNOPQR"))).toBe("unknown");
  });
});

const base: DeviceRecord = {
  deviceId: "1",
  fixTime: new Date("2026-12-07T12:00:00Z"),
  position: { latitude: 39.9612, longitude: -83.0007 },
  valid: true,
  attributes: {},
};

describe("dataPointsOf", () => {
  it("the waypoint to 6 decimals, speed in mph, the odometer in miles, the voltage in volts", () => {
    const record: DeviceRecord = {
      ...base,
      speedKnots: 50 / 1.852, // 50 km/h
      course: 148,
      odometerMeters: 258_866_000, // 160,851.875 miles
      powerMillivolts: 13_900,
      attributes: { BATTERY_LEVEL: 87, IO_21: 3, CHARGE: true },
    };
    expect(dataPointsOf(record)).toEqual([
      { key: "GEN_WAYPOINT", value: "39.961200,-83.000700" },
      { key: "GEN_SPEED", value: "31.1" },
      { key: "GEN_HEADING", value: "148" },
      { key: "GEN_ODOMETER", value: "160851.875" },
      { key: "GEN_VOLTAGE", value: "13.9" },
      { key: "DEVICE_BATTERY_LEVEL", value: "87" },
      { key: "DEVICE_IO_21", value: "3" },
      { key: "DEVICE_CHARGE", value: "true" },
    ]);
  });

  it("alarms with a vehicle event become it; the others DEVICE_ALARM", () => {
    const keyOf = (alarm: string) => dataPointsOf({ ...base, position: null, alarm });
    expect(keyOf("powerCut")).toEqual([{ key: "VEHICLE_EVENT_DISCONNECTED", value: "true" }]);
    expect(keyOf("acceleration")).toEqual([{ key: "VEHICLE_EVENT_HARSH_ACCEL", value: "true" }]);
    expect(keyOf("braking")).toEqual([{ key: "VEHICLE_EVENT_HARSH_DECEL", value: "true" }]);
    expect(keyOf("accident")).toEqual([{ key: "VEHICLE_EVENT_HARSH_IMPACT", value: "true" }]);
    expect(keyOf("sos")).toEqual([{ key: "DEVICE_ALARM", value: "sos" }]);
    expect(keyOf("vibration")).toEqual([{ key: "DEVICE_ALARM", value: "vibration" }]);
  });

  it("leaves out what a data set cannot hold: keys over 64 characters, values over 1,000, points past 200", () => {
    const long = dataPointsOf({
      ...base,
      position: null,
      attributes: { ["X".repeat(58)]: 1, ["Y".repeat(57)]: 2, V: "v".repeat(1001) },
    });
    expect(long).toEqual([{ key: `DEVICE_${"Y".repeat(57)}`, value: "2" }]);
    const many = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`IO_${i}`, i]));
    expect(dataPointsOf({ ...base, attributes: many })).toHaveLength(200);
  });

  it("attributeName: camelCase and punctuation to upper snake case", () => {
    expect(attributeName("batteryLevel")).toBe("BATTERY_LEVEL");
    expect(attributeName("driverUniqueId")).toBe("DRIVER_UNIQUE_ID");
    expect(attributeName("device-id.2")).toBe("DEVICE_ID_2");
    expect(attributeName("__")).toBeNull();
  });
});

describe("recordProblem", () => {
  const now = new Date("2026-12-07T12:00:00Z");
  it("refuses impossible coordinates and times more than 24 h ahead; takes the edges", () => {
    const at = (latitude: number, longitude: number) =>
      recordProblem({ ...base, position: { latitude, longitude } }, now);
    expect(at(90, 180)).toBeNull();
    expect(at(-90, -180)).toBeNull();
    expect(at(90.000001, 0)).toBe("impossible latitude");
    expect(at(0, -180.000001)).toBe("impossible longitude");
    expect(at(Number.NaN, 0)).toBe("impossible latitude");
    const when = (ms: number) => recordProblem({ ...base, fixTime: new Date(now.getTime() + ms) }, now);
    expect(when(24 * 3600_000)).toBeNull();
    expect(when(24 * 3600_000 + 1)).toBe("record dated more than 24 h ahead");
    expect(when(-365 * 24 * 3600_000)).toBeNull(); // a buffer emptied late is stored at its own time
    expect(recordProblem({ ...base, fixTime: new Date(Number.NaN) }, now)).toBe("invalid time");
  });
});
