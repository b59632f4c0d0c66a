"use client";

import "leaflet/dist/leaflet.css";
import L from "leaflet";
import { useEffect, useMemo, useRef, useState } from "react";
import { MapContainer, Marker, Tooltip, useMap } from "react-leaflet";
import { formatWhen } from "@/components/driver/format";
import type { DriverVehicle } from "@/server/surfaces/driver/views";
import { vehicleIcon } from "./marker-icons";
import { PlacesLayer, type PlacesLayerProps } from "./places-layer";
import { KeepSize, Tiles, TilesFailedNotice, type Tiles as TileConfig } from "./tiles";

type Placed = DriverVehicle & { lastWaypoint: NonNullable<DriverVehicle["lastWaypoint"]> };

export type VehicleMapProps = {
  vehicles: DriverVehicle[];
  tiles: TileConfig;
  timeZone: string;
  selectedId: number | null;
  followId: number | null;
  onSelect: (vehicleId: number) => void;
  /** Bumped by the "Show all" button: fit the map to every vehicle again. */
  fitRequest: number;
  /** The driver's places, drawn and edited on this map. */
  places: PlacesLayerProps;
};

const placed = (vs: DriverVehicle[]) => vs.filter((v): v is Placed => v.lastWaypoint !== null);

// Fits the map to the vehicles when the set of placed vehicles changes (not on every position
// update: the driver may have moved the map), when asked to, and keeps a followed vehicle centred.
function Camera({
  vehicles,
  selectedId,
  followId,
  fitRequest,
}: {
  vehicles: Placed[];
  selectedId: number | null;
  followId: number | null;
  fitRequest: number;
}) {
  const map = useMap();
  const idsKey = vehicles.map((v) => v.vehicleId).join(",");
  const lastFit = useRef<string | null>(null);
  useEffect(() => {
    const key = `${idsKey}|${fitRequest}`;
    if (lastFit.current === key || vehicles.length === 0) return;
    lastFit.current = key;
    const bounds = L.latLngBounds(
      vehicles.map((v) => [v.lastWaypoint.latitude, v.lastWaypoint.longitude] as [number, number]),
    );
    map.fitBounds(bounds, { padding: [40, 40], maxZoom: 15, animate: false });
  }, [map, idsKey, fitRequest, vehicles]);

  // "Show on map": centre the selected vehicle once, when it is selected.
  const lastSelected = useRef<number | null>(null);
  useEffect(() => {
    if (selectedId === lastSelected.current) return;
    lastSelected.current = selectedId;
    const chosen = vehicles.find((v) => v.vehicleId === selectedId);
    if (chosen)
      map.setView([chosen.lastWaypoint.latitude, chosen.lastWaypoint.longitude], Math.max(map.getZoom(), 13), {
        animate: false,
      });
  }, [map, selectedId, vehicles]);

  const followed = vehicles.find((v) => v.vehicleId === followId);
  const lat = followed?.lastWaypoint.latitude;
  const lon = followed?.lastWaypoint.longitude;
  useEffect(() => {
    if (lat === undefined || lon === undefined) return;
    map.panTo([lat, lon], { animate: true });
  }, [map, lat, lon]);
  return null;
}

// The map of the driver's vehicles: one marker each at its last waypoint, labelled with its label
// (else its name), and a tooltip with its running state and last-seen time in the account's time zone.
export default function VehicleMap({
  vehicles,
  tiles,
  timeZone,
  selectedId,
  followId,
  onSelect,
  fitRequest,
  places,
}: VehicleMapProps) {
  const [tilesFailed, setTilesFailed] = useState(false);
  const shown = useMemo(() => placed(vehicles), [vehicles]);
  return (
    <div
      className="flex h-full w-full flex-col"
      data-testid="vehicle-map"
      data-markers={shown.length}
      data-places={places.places.length}
    >
      {/* pmIgnore={false}: the map opts in to Leaflet-Geoman, which draws only on maps and layers that do. */}
      <MapContainer
        center={[39.8, -98.6]}
        zoom={3}
        className="min-h-0 w-full flex-1"
        scrollWheelZoom
        worldCopyJump
        pmIgnore={false}
      >
        <Tiles tiles={tiles} onFailure={() => setTilesFailed(true)} />
        <KeepSize />
        <Camera vehicles={shown} selectedId={selectedId} followId={followId} fitRequest={fitRequest} />
        <PlacesLayer {...places} />
        {shown.map((v) => {
          // A paused vehicle stays at its last position before the pause, and says so.
          const title = `${v.label || v.name}${v.locationPaused ? " (location paused)" : ""}`;
          return (
            <Marker
              key={v.vehicleId}
              position={[v.lastWaypoint.latitude, v.lastWaypoint.longitude]}
              icon={vehicleIcon({
                vehicleId: v.vehicleId,
                title,
                running: v.running,
                selected: v.vehicleId === selectedId,
                latitude: v.lastWaypoint.latitude,
                longitude: v.lastWaypoint.longitude,
              })}
              title={title}
              alt={title}
              keyboard
              eventHandlers={{ click: () => onSelect(v.vehicleId) }}
            >
              <Tooltip direction="top">
                <strong>{title}</strong>
                <br />
                {v.locationPaused ? "Location paused · last position before the pause, " : ""}
                {v.running ? "Running" : "Parked"} · seen {formatWhen(v.lastWaypoint.at, timeZone)}
              </Tooltip>
            </Marker>
          );
        })}
      </MapContainer>
      {tilesFailed ? <TilesFailedNotice /> : null}
    </div>
  );
}
