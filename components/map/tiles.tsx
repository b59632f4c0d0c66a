"use client";

import { useState } from "react";
import { TileLayer } from "react-leaflet";

export type Tiles = { url: string; attribution: string };

// The configured tile layer. When tiles cannot load (offline, blocked, a tile server down) the
// map keeps its markers and tracks on a plain background, and says so once.
export function Tiles({ tiles, onFailure }: { tiles: Tiles; onFailure: () => void }) {
  const [reported, setReported] = useState(false);
  return (
    <TileLayer
      url={tiles.url}
      attribution={tiles.attribution}
      eventHandlers={{
        tileerror: () => {
          if (reported) return;
          setReported(true);
          onFailure();
        },
      }}
    />
  );
}

export function TilesFailedNotice() {
  return (
    <p role="status" className="pointer-events-none absolute bottom-6 left-2 z-[1000] rounded bg-white/90 px-2 py-1 text-xs text-slate-800 shadow">
      Map background could not load; positions are still shown.
    </p>
  );
}
