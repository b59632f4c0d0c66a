// The road networks the sandbox simulator drives on: OpenStreetMap extracts of drivable roads,
// shipped gzipped in server/simulator/road-networks (NOTICE.md: source, area and licence), or
// the folder ROADS_DIR names.

export const ATTRIBUTION = "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)";

export type NetworkId = "columbus_oh" | "washington_dc";

export type Network = {
  id: NetworkId;
  name: string;
  file: string;
  /** minLon, minLat, maxLon, maxLat */
  bbox: [number, number, number, number];
};

export const NETWORKS: Network[] = [
  {
    id: "columbus_oh",
    name: "Columbus, Ohio",
    file: "columbus_oh_drive.geojson",
    bbox: [-83.111982, 39.886543, -82.942209, 40.13411],
  },
  {
    id: "washington_dc",
    name: "Washington, DC",
    file: "washington_dc_drive.geojson",
    bbox: [-77.106521, 38.881677, -76.974301, 38.975897],
  },
];

/** How far from the nearest road a given point may be and still be snapped onto it. */
export const MAX_SNAP_METERS = 1000;

export function networkContaining(lon: number, lat: number): Network | undefined {
  return NETWORKS.find(
    ({ bbox: [minLon, minLat, maxLon, maxLat] }) => lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat,
  );
}

export const coveredAreas = () =>
  NETWORKS.map((n) => `${n.name} (${n.bbox[1]}..${n.bbox[3]} N, ${n.bbox[0]}..${n.bbox[2]} E)`).join("; ");
