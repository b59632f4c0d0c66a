import { fileError, validateCandidates, type ParsedFile } from "./candidates";
import { geoJsonCandidates } from "./geojson";
import { kmlCandidates } from "./kml";

// An imported file's places: KML when it starts with "<" (after a byte order mark and white
// space), else GeoJSON; each feature validated like a place drawn on the map.

export function parsePlacesFile(content: string): ParsedFile {
  const text = content.replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("<")) {
    const candidates = kmlCandidates(text);
    return typeof candidates === "string" ? fileError(candidates) : validateCandidates(candidates);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fileError("The file is neither GeoJSON nor KML (it is not valid JSON and does not start with <).");
  }
  const candidates = geoJsonCandidates(json);
  if (!candidates) return fileError("The file is JSON but not a GeoJSON Feature or FeatureCollection.");
  return validateCandidates(candidates);
}
