"use client";

import { useState } from "react";
import { LiveStatus } from "@/components/live/live-status";
import { useLive } from "@/components/live/use-live";
import { LazyPositionMap } from "@/components/map/lazy";
import type { Tiles } from "@/components/map/tiles";
import type { DriverVehicle } from "@/server/surfaces/driver/views";
import { formatWhen } from "./format";
import { RelativeTime } from "./relative-time";

/** While the stream is down, how often the page asks /me/positions. */
const POLL_MS = 5000;

// The vehicle page's "Last position": the small map and the coordinates, moved by the driver's
// position stream (the map's own, /me/positions/stream, of which it takes this vehicle), or by
// polling /me/positions while the stream is down; the line below says which.
export function LivePosition({
  vehicle: initial,
  title,
  tiles,
  timeZone,
}: {
  vehicle: DriverVehicle;
  title: string;
  tiles: Tiles;
  timeZone: string;
}) {
  const [vehicle, setVehicle] = useState(initial);
  const { mode, problem } = useLive<{ vehicles: DriverVehicle[] }>({
    streamUrl: "/me/positions/stream",
    event: "positions",
    pollUrl: "/me/positions",
    pollMs: POLL_MS,
    onData: (body) => {
      const mine = body.vehicles.find((v) => v.vehicleId === initial.vehicleId);
      if (mine) setVehicle(mine);
    },
    onSignedOut: () => {
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/login?callbackUrl=${encodeURIComponent(`/vehicles/${initial.vehicleId}`)}`);
    },
  });
  const position = vehicle.lastWaypoint;
  return (
    <>
      {position ? (
        <>
          <div className="mt-3 h-64 overflow-hidden rounded-lg border border-slate-200">
            <LazyPositionMap
              vehicleId={vehicle.vehicleId}
              title={title}
              running={vehicle.running}
              position={position}
              tiles={tiles}
            />
          </div>
          <p className="mt-2 text-sm text-slate-700" data-field="Last position">
            {position.latitude.toFixed(5)}, {position.longitude.toFixed(5)}, reported{" "}
            <RelativeTime iso={position.at} timeZone={timeZone} /> ({formatWhen(position.at, timeZone)})
            {vehicle.locationPaused ? " (paused: the last position before the pause)" : ""}
          </p>
        </>
      ) : (
        <p className="mt-3 text-slate-700" data-field="Last position">
          No position yet. The map shows where the vehicle is once its device reports a location.
        </p>
      )}
      <div className="mt-2">
        <LiveStatus mode={mode} pollMs={POLL_MS} problem={problem} />
      </div>
    </>
  );
}
