"use client";

import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { MapContainer, Marker, Polyline, useMap } from "react-leaflet";
import type { Track } from "@/common/driver/trip-stats";
import { pinIcon, replayIcon } from "./marker-icons";
import { KeepSize, Tiles, TilesFailedNotice, type Tiles as TileConfig } from "./tiles";

export type TrackMapProps = { track: Track; tiles: TileConfig; current: [number, number] | null; follow: boolean };

// Fits the whole track once, then keeps the replay marker in view while following.
function Camera({
  positions,
  current,
  follow,
}: {
  positions: [number, number][];
  current: [number, number] | null;
  follow: boolean;
}) {
  const map = useMap();
  useEffect(() => {
    if (positions.length > 0)
      map.fitBounds(L.latLngBounds(positions), { padding: [30, 30], maxZoom: 16, animate: false });
  }, [map, positions]);
  const lat = current?.[0];
  const lon = current?.[1];
  useEffect(() => {
    if (!follow || lat === undefined || lon === undefined) return;
    map.panTo([lat, lon], { animate: false });
  }, [map, follow, lat, lon]);
  return null;
}

// A trip's track on a canvas (a 24-hour trip is some 17,000 points: one canvas path, not 17,000
// SVG nodes), its start (A) and end (B), and the replay position. Once the track is drawn the
// container says so (data-track-drawn, and a performance mark) for the replay benchmark and tests.
export default function TrackMap({ track, tiles, current, follow }: TrackMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const [drawn, setDrawn] = useState(false);
  const positions = useMemo(() => track.lat.map((lat, i) => [lat, track.lon[i]!] as [number, number]), [track]);
  const start = positions[0];
  const end = positions.at(-1);
  const [renderer] = useState(() => L.canvas({ padding: 0.5 }));

  return (
    <div
      className="flex h-full w-full flex-col"
      data-testid="track-map"
      data-track-points={positions.length}
      data-track-drawn={drawn ? positions.length : undefined}
    >
      <MapContainer
        center={start ?? [39.8, -98.6]}
        zoom={start ? 13 : 3}
        className="min-h-0 w-full flex-1"
        preferCanvas
        renderer={renderer}
      >
        <Tiles tiles={tiles} onFailure={() => setTilesFailed(true)} />
        <KeepSize />
        <Camera positions={positions} current={current} follow={follow} />
        {positions.length > 1 ? (
          <Polyline
            positions={positions}
            pathOptions={{ color: "#1d4ed8", weight: 4, opacity: 0.85 }}
            renderer={renderer}
            eventHandlers={{
              add: () =>
                requestAnimationFrame(() => {
                  performance.mark("wl-track-drawn");
                  setDrawn(true);
                }),
            }}
          />
        ) : null}
        {start ? (
          <Marker position={start} icon={pinIcon("start")} title="Trip start" alt="Trip start" keyboard={false} />
        ) : null}
        {end && positions.length > 1 ? (
          <Marker position={end} icon={pinIcon("end")} title="Trip end" alt="Trip end" keyboard={false} />
        ) : null}
        {current ? (
          <Marker
            position={current}
            icon={replayIcon()}
            title="Replay position"
            alt="Replay position"
            keyboard={false}
          />
        ) : null}
      </MapContainer>
      {tilesFailed ? <TilesFailedNotice /> : null}
    </div>
  );
}
