// Simulated routes follow OpenStreetMap's road network, so every map that can show them credits
// OSM's contributors under the ODbL. The configured tile layer (MAP_TILE_ATTRIBUTION) usually
// credits them already, with the same link: then a second credit would only repeat it.

export const ROAD_DATA_CREDIT =
  'Road data &copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors (ODbL)';

const CREDITS_OSM = /openstreetmap\.org\/copyright|openstreetmap contributors/i;

/** The attribution a map shows: the tiles' own, plus the road data's unless it is already there. */
export function withRoadDataCredit(tileAttribution: string): string {
  if (CREDITS_OSM.test(tileAttribution)) return tileAttribution;
  return tileAttribution.trim() ? `${tileAttribution}, ${ROAD_DATA_CREDIT}` : ROAD_DATA_CREDIT;
}
