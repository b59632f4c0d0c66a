"use client";

import "leaflet/dist/leaflet.css";
import { useEffect, useState } from "react";
import { MapContainer, Marker, useMap } from "react-leaflet";
import { vehicleIcon } from "./marker-icons";
import { KeepSize, Tiles, TilesFailedNotice, type Tiles as TileConfig } from "./tiles";

export type PositionMapProps = {
  vehicleId: number;
  title: string;
  running: boolean;
  position: { latitude: number; longitude: number };
  tiles: TileConfig;
};

// The map is centred once when it mounts; a new position (the live stream) centres it again.
function Recentre({ latitude, longitude }: { latitude: number; longitude: number }) {
  const map = useMap();
  useEffect(() => {
    map.panTo([latitude, longitude], { animate: true });
  }, [map, latitude, longitude]);
  return null;
}

// One vehicle where it last was, for the vehicle page: the big map's marker and credits, centred
// on the position at street level. The wheel scrolls the page, not the map (a small map inside a
// page would otherwise trap it); buttons, dragging and pinching still zoom and pan.
export default function PositionMap({ vehicleId, title, running, position, tiles }: PositionMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const { latitude, longitude } = position;
  return (
    <div className="flex h-full w-full flex-col" data-testid="position-map">
      <MapContainer center={[latitude, longitude]} zoom={15} className="min-h-0 w-full flex-1" scrollWheelZoom={false}>
        <Tiles tiles={tiles} onFailure={() => setTilesFailed(true)} />
        <KeepSize keepCentre />
        <Recentre latitude={latitude} longitude={longitude} />
        <Marker
          position={[latitude, longitude]}
          icon={vehicleIcon({ vehicleId, title, running, selected: false, latitude, longitude })}
          title={title}
          alt={title}
          keyboard
        />
      </MapContainer>
      {tilesFailed ? <TilesFailedNotice /> : null}
    </div>
  );
}
