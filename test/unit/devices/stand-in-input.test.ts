import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { encodeLocation } from "@/server/devices/protocols/gt06/encode";
import { decodeFrame } from "@/server/devices/protocols/gt06/messages";
import { encodeOsmAnd } from "@/server/devices/protocols/osmand/encode";
import { parseOsmAndRequest } from "@/server/devices/protocols/osmand/request";
import { CODEC_16, CODEC_8, CODEC_8_EXTENDED } from "@/server/devices/protocols/teltonika/codecs";
import { avlRecordOf, encodeAvlData, encodeTcpPacket } from "@/server/devices/protocols/teltonika/encode";
import { decodeTcpPacket } from "@/server/devices/protocols/teltonika/frames";
import { gpxPoints } from "@/server/devices/stand-in/gpx";
import { parseStandInArgs } from "@/server/devices/stand-in/options";
import { tripRecords } from "@/server/devices/stand-in/records";
import { standInRoute } from "@/server/devices/stand-in/route";
import { polylineGeometry } from "@/server/simulator/geometry";
import { generateTrip } from "@/server/simulator/model";

// What the stand-in drives and sends, before any byte goes out: its options, its routes (the
// simulator's templates and GPX files) and the records it makes of a trip.

const IMEI = "356307042441013";
const now = new Date();
const trip = generateTrip(
  polylineGeometry([
    [-77.0365, 38.8995],
    [-77.0095, 38.8925],
  ]),
  { collectionPeriod: 5, seed: 11, engineData: false },
);

describe("the stand-in's records of a trip", () => {
  it("each protocol's records come back from its wire as they are (Teltonika in every codec)", () => {
    for (const codec of [CODEC_8, CODEC_8_EXTENDED, CODEC_16] as const) {
      const records = tripRecords(trip, { protocol: "teltonika", deviceId: IMEI, start: now, speedup: 1, codec });
      const decoded = decodeTcpPacket(encodeTcpPacket(encodeAvlData(codec, records.slice(0, 20).map(avlRecordOf))), {
        deviceId: IMEI,
        now,
      });
      expect("records" in decoded && decoded.records).toEqual(records.slice(0, 20));
    }
    for (const record of tripRecords(trip, { protocol: "gt06", deviceId: IMEI, start: now, speedup: 1 })) {
      const message = decodeFrame(encodeLocation(0x22, record, { serial: 1 }), { deviceId: IMEI, now });
      expect("records" in message && message.records).toEqual([record]);
    }
    for (const record of tripRecords(trip, { protocol: "osmand", deviceId: "ada's phone", start: now, speedup: 1 })) {
      const parsed = parseOsmAndRequest(encodeOsmAnd(record, "query"), now);
      expect("records" in parsed && parsed.records).toEqual([record]);
    }
  });

  it("ignition on at the start and off at the end; whole seconds from the start, sped up, at least 1 s apart", () => {
    const start = new Date("2026-12-07T12:00:00.400Z");
    for (const speedup of [1, 5]) {
      const records = tripRecords(trip, { protocol: "gt06", deviceId: IMEI, start, speedup });
      expect(records).toHaveLength(trip.samples.length);
      expect(records.map((r) => r.ignition)).toEqual(records.map((_, i) => i < records.length - 1));
      const seconds = records.map((r) => (r.fixTime.getTime() - Date.parse("2026-12-07T12:00:01Z")) / 1000);
      expect(seconds[0]).toBe(0);
      seconds.forEach((s, i) => {
        expect(Number.isInteger(s)).toBe(true);
        if (i > 0) expect(s).toBeGreaterThan(seconds[i - 1]!);
      });
      expect(seconds[1]).toBe(5 / speedup);
      expect(records.at(-1)!.speedKnots).toBe(0);
    }
  });

  it("Teltonika: the ignition's changes are event records of IO 239, high priority; Codec 16 says so in its generation type", () => {
    const records = tripRecords(trip, {
      protocol: "teltonika",
      deviceId: IMEI,
      start: now,
      speedup: 1,
      codec: CODEC_16,
    });
    expect(records[0]!.attributes).toMatchObject({ EVENT_IO: 239, PRIORITY: 1, GENERATION_TYPE: 5 });
    expect(records[1]!.attributes).toMatchObject({ EVENT_IO: 0, PRIORITY: 0, GENERATION_TYPE: 7, IO_240: 1 });
    expect(records.at(-1)!.attributes).toMatchObject({ EVENT_IO: 239, IO_240: 0 });
    expect(records[1]!.powerMillivolts).toBeGreaterThan(13_000); // the engine runs
  });
});

describe("the stand-in's options", () => {
  it("defaults: each protocol's port from the contract, +10,000 with --sandbox; 5 s apart, real time", () => {
    const base = { id: IMEI, route: "dc-mall-loop" };
    expect(parseStandInArgs({ ...base, protocol: "teltonika" })).toMatchObject({
      port: 5027,
      host: "127.0.0.1",
      interval: 5,
      speedup: 1,
      codec: CODEC_8,
    });
    expect(parseStandInArgs({ ...base, protocol: "gt06", sandbox: true }).port).toBe(15023);
    expect(parseStandInArgs({ ...base, protocol: "osmand", id: "my phone", sandbox: true })).toMatchObject({
      port: 15055,
      form: "query",
    });
    expect(
      parseStandInArgs({ ...base, protocol: "teltonika", port: "15000", codec: "8E", interval: "10", speedup: "10" }),
    ).toMatchObject({ port: 15000, codec: CODEC_8_EXTENDED, interval: 10, speedup: 10 });
  });

  it("what is wrong is said, option by option", () => {
    const problems = (values: Record<string, string | boolean | undefined>) => {
      try {
        parseStandInArgs(values);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(problems({})).toBe(
      [
        "--protocol takes teltonika, gt06 or osmand",
        "--id is required: the IMEI (or an app's identifier) a vehicle's deviceId names",
        "--route is required: a simulator template id or a .gpx file",
      ].join("\n"),
    );
    const base = { protocol: "gt06", id: IMEI, route: "dc-mall-loop" };
    expect(problems({ ...base, id: "12345" })).toBe("--id for gt06 is an IMEI: 15 digits");
    expect(problems({ ...base, codec: "8" })).toBe("--codec is for --protocol teltonika");
    expect(problems({ ...base, form: "json" })).toBe("--form is for --protocol osmand");
    expect(problems({ ...base, interval: "5", speedup: "10" })).toBe(
      "--interval / --speedup must be at least 1 second",
    );
    expect(problems({ ...base, port: "70000" })).toBe("--port takes 1 to 65535");
    expect(problems({ ...base, interval: "1.5" })).toBe("--interval takes a whole number");
  });
});

describe("the stand-in's routes", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stand-in-gpx-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gpx = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">${body}</gpx>`;

  it("a GPX file's tracks, segment after segment; else its route; else its waypoints", () => {
    const track = gpx(`
      <wpt lat="1" lon="1"/>
      <trk><name>Morning</name>
        <trkseg><trkpt lat="39.9612" lon="-83.0007"><ele>230</ele><time>2026-12-07T08:00:00Z</time></trkpt>
                <trkpt lat="39.9701" lon="-83.0012"/></trkseg>
        <trkseg><trkpt lat="+39.9790" lon="-83.0035"></trkpt></trkseg>
      </trk>`);
    expect(gpxPoints(track)).toEqual([
      [-83.0007, 39.9612],
      [-83.0012, 39.9701],
      [-83.0035, 39.979],
    ]);
    expect(
      gpxPoints(gpx(`<rte><rtept lat="1.5" lon="2.5"/><rtept lat="-1" lon="-2"/></rte><wpt lat="9" lon="9"/>`)),
    ).toEqual([
      [2.5, 1.5],
      [-2, -1],
    ]);
    expect(gpxPoints(gpx(`<wpt lat="9" lon="8"/><wpt lat="7" lon="6"/>`))).toEqual([
      [8, 9],
      [6, 7],
    ]);
    // A namespace prefix, as some exporters write it.
    expect(gpxPoints(`<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:wpt lat="3" lon="4"/></g:gpx>`)).toEqual([
      [4, 3],
    ]);
    expect(gpxPoints(gpx(""))).toEqual([]);
  });

  it("what is wrong with a GPX file is said, with the point it is about", () => {
    expect(() => gpxPoints("<gpx><trk>")).toThrow(/^not XML: /);
    expect(() => gpxPoints("<kml/>")).toThrow("no <gpx> element");
    expect(() => gpxPoints(gpx(`<trk><trkseg><trkpt lat="91" lon="0"/></trkseg></trk>`))).toThrow(
      "gpx.trk[0].trkseg[0].trkpt[0]: lat is past ±90°",
    );
    expect(() => gpxPoints(gpx(`<wpt lat="1"/><wpt lat="1" lon="east"/>`))).toThrow("gpx.wpt[0]: lon is missing");
    expect(() => gpxPoints(gpx(`<wpt lat="1" lon="east"/>`))).toThrow("gpx.wpt[0]: lon is not a number");
  });

  it("--route: a .gpx file driven as a polyline, a template on the simulator's roads, or a clear error", () => {
    const file = path.join(dir, "drive.GPX");
    fs.writeFileSync(file, gpx(`<rte><rtept lat="51.5" lon="-0.12"/><rtept lat="51.51" lon="-0.1"/></rte>`));
    expect(standInRoute(file)).toEqual({
      name: file,
      geometry: {
        points: [
          [-0.12, 51.5],
          [-0.1, 51.51],
        ],
        limitsMph: [30],
        junctions: [],
      },
    });
    const single = path.join(dir, "one.gpx");
    fs.writeFileSync(single, gpx(`<wpt lat="51.5" lon="-0.12"/><wpt lat="51.5" lon="-0.12"/>`));
    expect(() => standInRoute(single)).toThrow(`--route ${single}: fewer than two distinct points`);
    expect(() => standInRoute(path.join(dir, "missing.gpx"))).toThrow(/ENOENT/);
    expect(() => standInRoute("nowhere")).toThrow(
      "--route nowhere: not a .gpx file, nor a template of the simulator's (columbus-downtown-loop, " +
        "columbus-osu-worthington, columbus-south-to-north, dc-mall-loop, dc-georgetown-capitol-hill)",
    );
    const template = standInRoute("dc-mall-loop");
    expect(template.name).toBe("Washington, DC: White House – Capitol loop");
    expect(template.geometry.points.length).toBeGreaterThan(10);
  });
});
