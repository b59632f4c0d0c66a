"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { LiveStatus } from "@/components/live/live-status";
import { useLive } from "@/components/live/use-live";
import { LazyVehicleMap } from "@/components/map/lazy";
import type { Tiles } from "@/components/map/tiles";
import type { PlaceOut, PlaceShape } from "@/server/places/schemas";
import type { DriverVehicle } from "@/server/surfaces/driver/views";
import { formatAgo, formatWhen } from "./format";
import { PlacesPanel } from "./places-panel";
import { usePlaces } from "./use-places";

/** While the stream is down, how often the map asks /me/positions for positions. */
const POLL_MS = 2000;

// The map home: every vehicle on the map and in the side list, kept current by the driver's
// position stream (/me/positions/stream), or by polling /me/positions every POLL_MS while the
// stream is down (useLive). Selecting a vehicle highlights it; "Follow" keeps it centred as it moves;
// "Share" goes to the vehicle page's shared links.
export function LiveVehicles({
  initial,
  tiles,
  timeZone,
  focus = null,
  initialPlaces,
}: {
  initial: DriverVehicle[];
  tiles: Tiles;
  timeZone: string;
  focus?: number | null;
  initialPlaces: PlaceOut[];
}) {
  const places = usePlaces(initialPlaces);
  const [draft, setDraft] = useState<PlaceShape | null>(null);
  const [vehicles, setVehicles] = useState(initial);
  const [selectedId, setSelectedId] = useState<number | null>(focus);
  const [followId, setFollowId] = useState<number | null>(null);
  const [fitRequest, setFitRequest] = useState(0);
  const [now, setNow] = useState(() => Date.now());

  const { mode, problem } = useLive<{ vehicles: DriverVehicle[] }>({
    streamUrl: "/me/positions/stream",
    event: "positions",
    pollUrl: "/me/positions",
    pollMs: POLL_MS,
    onData: (body) => {
      setVehicles(body.vehicles);
      setNow(Date.now());
    },
    onSignedOut: () => {
      // The session ended: a full load of the sign-in page, which comes back here.
      // eslint-disable-next-line @next/next/no-location-assign-relative-destination
      window.location.assign(`/login?callbackUrl=${encodeURIComponent("/map")}`);
    },
  });

  // "Seen … ago" keeps counting while no update comes (a parked car sends nothing).
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);

  const select = (id: number) => setSelectedId(id);
  const unplaced = vehicles.filter((v) => !v.lastWaypoint).length;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section
        aria-label="Map of your vehicles"
        className="relative h-[55vh] min-h-72 overflow-hidden rounded-xl border border-slate-200 bg-slate-100 shadow-sm lg:h-[calc(100vh-10rem)]"
      >
        <LazyVehicleMap
          vehicles={vehicles}
          tiles={tiles}
          timeZone={timeZone}
          selectedId={selectedId}
          followId={followId}
          onSelect={select}
          fitRequest={fitRequest}
          places={{
            places: places.places,
            draft,
            revision: places.revision,
            onDrawn: setDraft,
            onReshape: places.reshape,
            onRemove: places.remove,
          }}
        />
      </section>
      <section aria-labelledby="vehicle-list-heading" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="vehicle-list-heading" className="text-lg font-semibold">
            Vehicles <span className="text-slate-600">({vehicles.length})</span>
          </h2>
          <button
            type="button"
            onClick={() => setFitRequest((n) => n + 1)}
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold hover:bg-slate-50"
          >
            Show all on map
          </button>
        </div>
        <LiveStatus mode={mode} pollMs={POLL_MS} problem={problem} />
        <ul className="flex flex-col gap-2" aria-label="Your vehicles">
          {vehicles.map((v) => {
            const title = v.label || v.name;
            const selected = v.vehicleId === selectedId;
            const following = v.vehicleId === followId;
            return (
              <li
                key={v.vehicleId}
                data-vehicle-id={v.vehicleId}
                className={`rounded-xl border bg-white p-3 shadow-sm ${selected ? "border-blue-700 ring-2 ring-blue-700" : "border-slate-200"}`}
              >
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h3 className="truncate font-semibold">
                      <Link
                        href={`/vehicles/${v.vehicleId}`}
                        className="text-blue-800 underline-offset-2 hover:underline"
                      >
                        {title}
                      </Link>
                    </h3>
                    {v.label ? <p className="truncate text-sm text-slate-600">{v.name}</p> : null}
                  </div>
                  <span
                    className={
                      `shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ` +
                      `${v.running ? "bg-emerald-100 text-emerald-900" : "bg-slate-100 text-slate-800"}`
                    }
                  >
                    {v.running ? "Running" : "Parked"}
                  </span>
                </div>
                <p className="mt-1 text-sm text-slate-700" data-testid="last-seen" suppressHydrationWarning>
                  {v.lastWaypoint ? (
                    <>
                      Seen <time dateTime={v.lastWaypoint.at}>{formatWhen(v.lastWaypoint.at, timeZone)}</time> (
                      {formatAgo(v.lastWaypoint.at, now)})
                    </>
                  ) : (
                    "No position reported yet"
                  )}
                </p>
                {v.lastWaypoint ? (
                  <div className="mt-2 flex flex-wrap gap-2">
                    <button
                      type="button"
                      aria-pressed={selected}
                      onClick={() => select(v.vehicleId)}
                      className="min-h-11 rounded-lg border border-slate-300 px-3 text-sm font-semibold hover:bg-slate-50"
                    >
                      Show on map
                    </button>
                    <button
                      type="button"
                      aria-pressed={following}
                      aria-label={`Follow ${title}`}
                      onClick={() => {
                        setFollowId(following ? null : v.vehicleId);
                        select(v.vehicleId);
                      }}
                      className={
                        `min-h-11 rounded-lg px-3 text-sm font-semibold ` +
                        `${following ? "bg-blue-700 text-white hover:bg-blue-800" : "border border-slate-300 hover:bg-slate-50"}`
                      }
                    >
                      {following ? "Following" : "Follow"}
                    </button>
                    <Link
                      href={`/vehicles/${v.vehicleId}#share`}
                      aria-label={`Share the live location of ${title}`}
                      className="inline-flex min-h-11 items-center rounded-lg border border-slate-300 px-3 text-sm font-semibold hover:bg-slate-50"
                    >
                      Share
                    </Link>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
        {unplaced > 0 ? (
          <p className="text-xs text-slate-600">
            {unplaced === 1 ? "One vehicle has" : `${unplaced} vehicles have`} not reported a position yet and are not
            on the map.
          </p>
        ) : null}
        <PlacesPanel places={places} draft={draft} onDraftDone={() => setDraft(null)} />
      </section>
    </div>
  );
}
