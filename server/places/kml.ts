import { XMLParser, XMLValidator } from "fast-xml-parser";
import { labelOf, type Candidate } from "./candidates";
import { circleRing, closedRing } from "./rings";
import type { PlaceOut } from "./schemas";

// Places as KML 2.2 (OGC 12-007r2): one Placemark per place in a Document. A polygon is a Polygon
// of one outer ring. KML has no circle: a circle is written as a 64-sided Polygon, so Google Earth,
// My Maps and every other viewer draw it where it is, and carries its exact centre and radius in
// ExtendedData (`radius` in metres, `center` as "longitude,latitude"), from which an import gives
// the same circle back (docs/decisions/0148-circles-in-geojson-and-kml.md). Reading takes any
// Placemark of the file, in Folders or not, as Google My Maps and Google Earth write them.

const escape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const coordinates = (ring: { latitude: number; longitude: number }[]) =>
  closedRing(ring)
    .map((p) => `${p.longitude},${p.latitude}`)
    .join(" ");

const polygonXml = (ring: { latitude: number; longitude: number }[]) =>
  `<Polygon><outerBoundaryIs><LinearRing><coordinates>${coordinates(ring)}</coordinates></LinearRing></outerBoundaryIs></Polygon>`;

export function placesToKml(places: PlaceOut[]): string {
  const placemarks = places.map(({ name, shape }) => {
    if (shape.kind === "polygon")
      return `    <Placemark><name>${escape(name)}</name>${polygonXml(shape.polygon)}</Placemark>`;
    const data =
      `<ExtendedData><Data name="radius"><value>${shape.radius}</value></Data>` +
      `<Data name="center"><value>${shape.center.longitude},${shape.center.latitude}</value></Data></ExtendedData>`;
    return `    <Placemark><name>${escape(name)}</name>${data}${polygonXml(circleRing(shape.center, shape.radius))}</Placemark>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<kml xmlns="http://www.opengis.net/kml/2.2">`,
    `  <Document>`,
    `    <name>Wayline places</name>`,
    ...placemarks,
    `  </Document>`,
    `</kml>`,
    ``,
  ].join("\n");
}

type Node = Record<string, unknown>;
const LISTS = new Set(["Placemark", "Folder", "Document", "Data", "Polygon", "innerBoundaryIs"]);

const asNode = (value: unknown): Node | null =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Node) : null;
const textOf = (value: unknown): string | undefined =>
  typeof value === "string" || typeof value === "number"
    ? String(value)
    : asNode(value)?.["#text"] !== undefined
      ? String(asNode(value)!["#text"])
      : undefined;

/** Every Placemark under the node, depth first in file order (Documents and Folders nest). */
function placemarksIn(node: Node, into: Node[] = []): Node[] {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("@_") || key === "#text") continue;
    for (const child of Array.isArray(value) ? value : [value]) {
      const n = asNode(child);
      if (!n) continue;
      if (key === "Placemark") into.push(n);
      else placemarksIn(n, into);
    }
  }
  return into;
}

/** "lon,lat[,alt] lon,lat[,alt] …" as points; a tuple that is not two numbers becomes NaN, which the schema refuses. */
const points = (text: string | undefined) =>
  (text ?? "")
    .trim()
    .split(/\s+/)
    .filter((t) => t !== "")
    .map((tuple) => {
      const [lon, lat] = tuple.split(",").map((v) => (v.trim() === "" ? NaN : Number(v)));
      return { latitude: lat ?? NaN, longitude: lon ?? NaN };
    });

function extendedData(placemark: Node): Record<string, string> {
  const data: Record<string, string> = {};
  const items = asNode(placemark.ExtendedData)?.Data;
  for (const item of Array.isArray(items) ? items : []) {
    const n = asNode(item);
    const name = n?.["@_name"];
    const value = textOf(n?.value);
    if (typeof name === "string" && value !== undefined) data[name] = value.trim();
  }
  return data;
}

const numeric = (value: string) => (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value) ? Number(value) : value);

function candidateOf(placemark: Node, index: number): Candidate {
  const name = textOf(placemark.name);
  const label = labelOf(index, name);
  if (name === undefined || name.trim() === "") return { label, problem: "has no name." };
  const geometries = ["Point", "LineString", "LinearRing", "MultiGeometry", "Model", "Track"].filter(
    (g) => placemark[g] !== undefined,
  );
  const polygons = Array.isArray(placemark.Polygon) ? placemark.Polygon : [];
  if (polygons.length !== 1 || geometries.length > 0) {
    const what = polygons.length > 1 ? "several Polygons" : (geometries[0] ?? "no geometry");
    return { label, problem: `has ${what}: a place is one Polygon (or a circle this site exported).` };
  }
  const polygon = asNode(polygons[0])!;
  if (Array.isArray(polygon.innerBoundaryIs) && polygon.innerBoundaryIs.length > 0)
    return { label, problem: "is a Polygon with holes: places have one ring." };
  const ring = points(textOf(asNode(asNode(asNode(polygon.outerBoundaryIs)?.LinearRing))?.coordinates));
  const data = extendedData(placemark);
  if (data.radius !== undefined && data.center !== undefined) {
    const [center] = points(data.center);
    return { label, place: { name, shape: { kind: "circle", center, radius: numeric(data.radius) } } };
  }
  return { label, place: { name, shape: { kind: "polygon", polygon: ring } } };
}

/** The file's placemarks as candidates; a string saying why when it is not KML. */
export function kmlCandidates(text: string): Candidate[] | string {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return `The file is not valid XML: ${valid.err.msg} (line ${valid.err.line}).`;
  const xml = asNode(
    new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      removeNSPrefix: true,
      parseTagValue: false,
      parseAttributeValue: false,
      isArray: (tag) => LISTS.has(tag),
    }).parse(text),
  );
  const kml = asNode(xml?.kml);
  if (!kml) return "The file is XML but not KML (no <kml> element).";
  return placemarksIn(kml).map(candidateOf);
}
