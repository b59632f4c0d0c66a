import { readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { pointInPolygon } from "@/common/geo/polygon";
import { haversineMiles } from "@/common/driver/trip-stats";
import { parsePlacesFile } from "@/server/places/files";
import { placesToGeoJson } from "@/server/places/geojson";
import { placesToKml } from "@/server/places/kml";
import type { PlaceOut } from "@/server/places/schemas";

// Places in and out as GeoJSON and KML: files as Google My Maps, Google Earth Pro and geojson.io
// write them, what we write read back as the same places, and a file's bad features named one by one.

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

const places: PlaceOut[] = [
  {
    id: 1,
    name: "Home",
    shape: { kind: "circle", center: { latitude: 48.8566, longitude: 2.3522 }, radius: 120 },
    createdAt: "",
    updatedAt: "",
  },
  {
    id: 2,
    name: 'Work <R&D> "lab"',
    shape: {
      kind: "polygon",
      polygon: [
        { latitude: 48.8584, longitude: 2.2945 },
        { latitude: 48.859, longitude: 2.296 },
        { latitude: 48.8578, longitude: 2.2972 },
      ],
    },
    createdAt: "",
    updatedAt: "",
  },
];
const asNew = places.map(({ name, shape }) => ({ name, shape }));

describe("places as GeoJSON and KML", () => {
  it("GeoJSON: circles are Points with properties.radius, polygons closed rings; read back the same", () => {
    const text = placesToGeoJson(places);
    const json = JSON.parse(text);
    expect(json.type).toBe("FeatureCollection");
    expect(json.features[0]).toEqual({
      type: "Feature",
      properties: { name: "Home", radius: 120 },
      geometry: { type: "Point", coordinates: [2.3522, 48.8566] },
    });
    const ring = json.features[1].geometry.coordinates[0];
    expect(ring).toHaveLength(4);
    expect(ring[3]).toEqual(ring[0]);
    expect(parsePlacesFile(text)).toEqual({ places: asNew, errors: [] });
  });

  it("KML: a circle is drawn as a polygon on the circle and read back exactly from its ExtendedData", () => {
    const text = placesToKml(places);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(text);
    const [home, work] = xml.kml.Document.Placemark;
    expect(work.name).toBe('Work <R&D> "lab"');
    const drawn = String(home.Polygon.outerBoundaryIs.LinearRing.coordinates)
      .split(" ")
      .map((t) => t.split(",").map(Number));
    expect(drawn).toHaveLength(65);
    for (const [lon, lat] of drawn) expect(haversineMiles(48.8566, 2.3522, lat!, lon!) * 1609.344).toBeCloseTo(120, 0);
    expect(parsePlacesFile(text)).toEqual({ places: asNew, errors: [] });
  });

  it("a Google My Maps export: the polygons of its folders, names unescaped", () => {
    const { places: read, errors } = parsePlacesFile(fixture("google-my-maps.kml"));
    expect(errors).toEqual([]);
    expect(read.map((p) => p.name)).toEqual(["Home", "Work & Co"]);
    expect(read[0]!.shape.kind === "polygon" && read[0]!.shape.polygon).toHaveLength(4);
    expect(read[0]!.shape.kind === "polygon" && read[0]!.shape.polygon[0]).toEqual({
      latitude: 48.8573841,
      longitude: 2.3470116,
    });
  });

  it("a Google Earth Pro polygon (namespaced document, LookAt, one line of coordinates)", () => {
    const { places: read, errors } = parsePlacesFile(fixture("google-earth.kml"));
    expect(errors).toEqual([]);
    expect(read).toHaveLength(1);
    const shape = read[0]!.shape;
    expect(shape.kind).toBe("polygon");
    if (shape.kind === "polygon")
      expect(pointInPolygon({ latitude: 51.5074, longitude: -0.1275 }, shape.polygon)).toBe(true);
  });

  it("a geojson.io FeatureCollection with style properties and ids", () => {
    const { places: read, errors } = parsePlacesFile(fixture("geojson-io.geojson"));
    expect(errors).toEqual([]);
    expect(read.map((p) => [p.name, p.shape.kind])).toEqual([
      ["School", "polygon"],
      ["Parents", "circle"],
    ]);
    expect(read[1]!.shape).toEqual({
      kind: "circle",
      center: { latitude: 40.78264, longitude: -73.96542 },
      radius: 150,
    });
  });

  it("every feature that is no place is named, with why", () => {
    const { errors } = parsePlacesFile(fixture("not-places.geojson"));
    expect(errors.map((e) => [e.fieldName, e.errorDisplay])).toEqual([
      [
        "features.1.shape.polygon",
        "Feature 2 (“Bow tie”): shape.polygon: The polygon's edges must not cross or touch each other.",
      ],
      ["features.2.shape.radius", "Feature 3 (“Tiny”): shape.radius: A circle's radius must be at least 25 m."],
      ["features.3", "Feature 4: has no name (properties.name)."],
      ["features.4", "Feature 5 (“Road”): is a LineString: a place is a circle or a polygon."],
    ]);
  });

  it("a KML pin, a file that is neither format, and XML that is not KML are refused clearly", () => {
    const pin = `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><name>Bakery</name><Point><coordinates>2.35,48.85,0</coordinates></Point></Placemark></kml>`;
    expect(parsePlacesFile(pin).errors.map((e) => e.errorDisplay)).toEqual([
      "Feature 1 (“Bakery”): has Point: a place is one Polygon (or a circle this site exported).",
    ]);
    expect(parsePlacesFile("hello").errors[0]!.fieldName).toBe("content");
    expect(parsePlacesFile("<gpx></gpx>").errors[0]!.errorDisplay).toMatch(/not KML/);
    expect(parsePlacesFile("<kml><Placemark>").errors[0]!.errorDisplay).toMatch(/not valid XML/);
    expect(parsePlacesFile('{"type": "Polygon", "coordinates": []}').errors[0]!.errorDisplay).toMatch(/not a GeoJSON/);
  });
});
