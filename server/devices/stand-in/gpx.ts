import { XMLParser, XMLValidator } from "fast-xml-parser";
import { z } from "zod";
import type { LonLat } from "@/server/simulator/geo";

// The points of a GPX file (GPX 1.0 and 1.1): its tracks' points, segment after segment, else its
// routes' points, else its waypoints. The XML is read by fast-xml-parser; what the file says is
// then parsed by the schema below, so a point without a usable lat or lon is an error that names it.

const LISTS = new Set(["trk", "trkseg", "trkpt", "rte", "rtept", "wpt"]);

const coordinate = (name: string, limit: number) =>
  z
    .string(`${name} is missing`)
    .trim()
    .regex(/^[-+]?(\d+\.?\d*|\.\d+)$/, `${name} is not a number`)
    .transform(Number)
    .pipe(z.number().min(-limit, `${name} is past ±${limit}°`).max(limit, `${name} is past ±${limit}°`));
// An element with nothing in it (<trkseg/>, <gpx></gpx>) is read as "".
const element = <T extends z.ZodRawShape>(shape: T, message?: string) =>
  z.preprocess((value) => (value === "" ? {} : value), z.object(shape, message));
const points = z.array(element({ "@_lat": coordinate("lat", 90), "@_lon": coordinate("lon", 180) })).default([]);
const gpxFile = element(
  {
    gpx: element(
      {
        trk: z.array(element({ trkseg: z.array(element({ trkpt: points })).default([]) })).default([]),
        rte: z.array(element({ rtept: points })).default([]),
        wpt: points,
      },
      "no <gpx> element",
    ),
  },
  "no <gpx> element",
);

/** The file's points as [longitude, latitude]; throws an Error saying what is wrong with it. */
export function gpxPoints(text: string): LonLat[] {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new Error(`not XML: ${valid.err.msg} (line ${valid.err.line})`);
  const xml: unknown = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    removeNSPrefix: true,
    parseAttributeValue: false,
    isArray: (name) => LISTS.has(name),
  }).parse(text);
  const parsed = gpxFile.safeParse(xml);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.filter((p) => typeof p !== "string" || !p.startsWith("@_"));
    throw new Error(where.length > 0 ? `${formatPath(where)}: ${issue.message}` : issue.message);
  }
  const { trk, rte, wpt } = parsed.data.gpx;
  const track = trk.flatMap((t) => t.trkseg.flatMap((s) => s.trkpt));
  const route = rte.flatMap((r) => r.rtept);
  const chosen = track.length > 0 ? track : route.length > 0 ? route : wpt;
  return chosen.map((p): LonLat => [p["@_lon"], p["@_lat"]]);
}

/** `gpx.trk[0].trkseg[1].trkpt[41]`: where a reader finds the point. */
const formatPath = (path: PropertyKey[]) =>
  path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("");
