"use client";

import L from "leaflet";
import { useEffect } from "react";
import { useMap } from "react-leaflet";

// The map's background when tiles cannot load (MAP_TILE_URL=off, offline, a tile server down):
// the road networks the repository ships, fetched a grid cell at a time from /roads/{level}/{x}/{y}
// (server/simulator/road-cells.ts: major roads when zoomed out, every road at street level) for
// what the map shows, and drawn in a pane under the markers and tracks. Cells are kept once
// fetched (the browser caches them for a day too), so panning back costs nothing.

const LEVELS = [
  { cell: 0.1, minZoom: 10 },
  { cell: 0.02, minZoom: 14 },
];
/** More cells than this in view: zoomed too far out for roads to help; draw none. */
const MAX_CELLS = 24;
const PANE = "roads";

const STYLE: Record<string, L.PathOptions> = {
  major: { color: "#94a3b8", weight: 3, opacity: 1 },
  minor: { color: "#cbd5e1", weight: 1.5, opacity: 1 },
};

const fetched = new Map<string, Promise<GeoJSON.FeatureCollection | null>>();

function cell(url: string) {
  let found = fetched.get(url);
  if (!found) {
    found = fetch(url)
      .then((res) => (res.ok ? (res.json() as Promise<GeoJSON.FeatureCollection>) : null))
      .catch(() => null);
    fetched.set(url, found);
    // A failed cell is asked again next time, not remembered as empty.
    void found.then((c) => c === null && fetched.delete(url));
  }
  return found;
}

export function RoadBackground() {
  const map = useMap();
  useEffect(() => {
    if (!map.getPane(PANE)) {
      const pane = map.createPane(PANE);
      pane.style.zIndex = "250"; // above tiles (200), under overlays (400) and markers (600)
      pane.dataset.testid = "road-background";
    }
    const renderer = L.svg({ pane: PANE });
    const group = L.layerGroup().addTo(map);
    const drawn = new Map<string, L.Layer>();
    let cancelled = false;

    const update = () => {
      const zoom = map.getZoom();
      const level = zoom >= LEVELS[1]!.minZoom ? 1 : 0;
      const size = LEVELS[level]!.cell;
      const b = map.getBounds();
      const [x0, x1] = [Math.floor(b.getWest() / size), Math.floor(b.getEast() / size)];
      const [y0, y1] = [Math.floor(b.getSouth() / size), Math.floor(b.getNorth() / size)];
      const wanted = new Set<string>();
      if (zoom >= LEVELS[0]!.minZoom && (x1 - x0 + 1) * (y1 - y0 + 1) <= MAX_CELLS)
        for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) wanted.add(`/roads/${level}/${x}/${y}`);
      for (const [url, layer] of drawn)
        if (!wanted.has(url)) {
          group.removeLayer(layer);
          drawn.delete(url);
        }
      for (const url of wanted) {
        if (drawn.has(url)) continue;
        const placeholder = L.layerGroup();
        drawn.set(url, placeholder);
        void cell(url).then((data) => {
          if (cancelled || drawn.get(url) !== placeholder || !data || data.features.length === 0) return;
          // Leaflet hands the GeoJSON layer's options to each line it makes: one SVG for all cells.
          const options = {
            pane: PANE,
            interactive: false,
            renderer,
            style: (f?: GeoJSON.Feature) => STYLE[String(f?.properties?.kind)],
          };
          const layer = L.geoJSON(data, options as L.GeoJSONOptions);
          drawn.set(url, layer);
          group.addLayer(layer);
        });
      }
    };
    update();
    map.on("moveend", update);
    return () => {
      cancelled = true;
      map.off("moveend", update);
      group.remove();
      renderer.remove();
    };
  }, [map]);
  return null;
}
