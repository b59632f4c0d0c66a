"use client";

import { useEffect, useState } from "react";
import { TileLayer, useMap } from "react-leaflet";
import { withRoadDataCredit } from "./attribution";
import { RoadBackground } from "./road-background";

export type Tiles = { url: string; attribution: string };

// The configured tile layer, credited with the road data the simulator drives on. When tiles
// cannot load (offline, blocked, a tile server down: the first tile error) or are switched off
// (MAP_TILE_URL=off), the map draws the shipped road networks as its background instead
// (RoadBackground), and keeps its markers and tracks; a failure is said once (onFailure).
export function Tiles({ tiles, onFailure }: { tiles: Tiles; onFailure: () => void }) {
  const [failed, setFailed] = useState(false);
  const off = tiles.url === "off";
  return (
    <>
      {off ? (
        <AttributionOnly attribution={withRoadDataCredit("")} />
      ) : (
        <TileLayer
          url={tiles.url}
          attribution={withRoadDataCredit(tiles.attribution)}
          eventHandlers={{
            tileerror: () => {
              if (failed) return;
              setFailed(true);
              onFailure();
            },
          }}
        />
      )}
      {off || failed ? <RoadBackground /> : null}
    </>
  );
}

// The road data's credit on a map without tiles (the tile layer would otherwise carry it).
function AttributionOnly({ attribution }: { attribution: string }) {
  const map = useMap();
  useEffect(() => {
    map.attributionControl?.addAttribution(attribution);
    return () => void map.attributionControl?.removeAttribution(attribution);
  }, [map, attribution]);
  return null;
}

// Below the map, not over it: over the map it would hide whatever marker sits under it. Its
// arrival makes the map shorter, which Leaflet must be told of (see KeepSize).
export function TilesFailedNotice() {
  return (
    <p
      role="status"
      data-testid="map-notice"
      className="shrink-0 border-t border-slate-200 bg-white px-2 py-1 text-xs text-slate-800"
    >
      Map background could not load; positions are still shown.
    </p>
  );
}

// Leaflet measures its container once and on window resizes; a container resized by the page
// (the notice above, a sidebar) would leave grey bands and misplaced clicks without this.
// keepCentre: the point in the middle stays there (a map centred on one vehicle); otherwise the
// top-left corner stays, and with it what the driver was looking at.
export function KeepSize({ keepCentre = false }: { keepCentre?: boolean }) {
  const map = useMap();
  useEffect(() => {
    const observer = new ResizeObserver(() => map.invalidateSize({ pan: keepCentre }));
    observer.observe(map.getContainer());
    return () => observer.disconnect();
  }, [map, keepCentre]);
  return null;
}
