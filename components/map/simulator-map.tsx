"use client";

import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useMemo, useState } from "react";
import { MapContainer, Marker, Polyline, useMap, useMapEvents } from "react-leaflet";
import { pinIcon, vehicleIcon } from "./marker-icons";
import { KeepSize, Tiles, TilesFailedNotice, type Tiles as TileConfig } from "./tiles";

export type LatLon = { latitude: number; longitude: number };

export type SimulatorMapProps = {
  tiles: TileConfig;
  start: LatLon | null;
  end: LatLon | null;
  /** The route to draw: the chosen saved route or template, or the watched run's. */
  route: LatLon[];
  vehicle: (LatLon & { vehicleId: number; title: string }) | null;
  onPick: (point: LatLon) => void;
};

// Downtown Columbus: the first covered area, where a partner most likely starts.
const HOME: [number, number] = [39.99, -83.0];

function Clicks({ onPick }: { onPick: (p: LatLon) => void }) {
  useMapEvents({ click: (e) => onPick({ latitude: e.latlng.lat, longitude: e.latlng.lng }) });
  return null;
}

// Fits the drawn route once per route (not on every poll, the partner may have moved the map).
function FitRoute({ route }: { route: [number, number][] }) {
  const map = useMap();
  const key = route.length ? `${route[0]!.join()}|${route.at(-1)!.join()}|${route.length}` : "";
  useEffect(() => {
    if (route.length > 1) map.fitBounds(L.latLngBounds(route), { padding: [30, 30], maxZoom: 15, animate: false });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refit only when the route itself changes
  }, [map, key]);
  return null;
}

// The simulator's map: click to place the start (A) and end (B), the route drawn, and the
// simulated vehicle where its last data set put it. Works without tiles.
export default function SimulatorMap({ tiles, start, end, route, vehicle, onPick }: SimulatorMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const line = useMemo(() => route.map((p) => [p.latitude, p.longitude] as [number, number]), [route]);
  return (
    <div className="flex h-full w-full flex-col" data-testid="simulator-map" data-route-points={line.length}>
      <MapContainer center={HOME} zoom={12} className="min-h-0 w-full flex-1" scrollWheelZoom>
        <Tiles tiles={tiles} onFailure={() => setTilesFailed(true)} />
        <KeepSize />
        <Clicks onPick={onPick} />
        <FitRoute route={line} />
        {line.length > 1 ? (
          <Polyline positions={line} pathOptions={{ color: "#1d4ed8", weight: 4, opacity: 0.8 }} />
        ) : null}
        {start ? (
          <Marker
            position={[start.latitude, start.longitude]}
            icon={pinIcon("start")}
            title="Start"
            alt="Start"
            keyboard={false}
          />
        ) : null}
        {end ? (
          <Marker
            position={[end.latitude, end.longitude]}
            icon={pinIcon("end")}
            title="End"
            alt="End"
            keyboard={false}
          />
        ) : null}
        {vehicle ? (
          <Marker
            position={[vehicle.latitude, vehicle.longitude]}
            icon={vehicleIcon({
              vehicleId: vehicle.vehicleId,
              title: vehicle.title,
              running: true,
              selected: false,
              latitude: vehicle.latitude,
              longitude: vehicle.longitude,
            })}
            title={vehicle.title}
            alt={vehicle.title}
            keyboard={false}
          />
        ) : null}
      </MapContainer>
      {tilesFailed ? <TilesFailedNotice /> : null}
    </div>
  );
}
