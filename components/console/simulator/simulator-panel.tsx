"use client";

import { useRouter } from "next/navigation";
import { useCallback, useMemo, useState } from "react";
import { LazySimulatorMap } from "@/components/map/lazy";
import type { LatLon } from "@/components/map/simulator-map";
import type { Tiles } from "@/components/map/tiles";
import type { SimulatorOverview } from "@/server/surfaces/console/simulator";
import { RunsTable } from "./runs-table";
import { SaveRoute } from "./save-route";
import { SimulatorForm } from "./simulator-form";
import type { Trip } from "./trip-fields";
import { useSimulatorPost } from "./use-simulator-post";
import { useWatchedRun } from "./use-watched-run";
import { WatchedRun } from "./watched-run";

type Props = { appId: number; csrfToken: string; tiles: Tiles } & SimulatorOverview;

const fixed = (n: number) => n.toFixed(6);
const toPoint = (lat: string, lon: string): LatLon | null => {
  const latitude = Number(lat);
  const longitude = Number(lon);
  return lat.trim() && lon.trim() && Number.isFinite(latitude) && Number.isFinite(longitude)
    ? { latitude, longitude }
    : null;
};

// The sandbox simulator page's client part: choose a vehicle and a way (clicked start and end, a
// saved route or a template), the mode and the data, start through POST /console/actions/
// start-simulation, then watch the run (its stream, …/simulator/runs/{id}/stream, or a poll every
// 2 s while that is down: progress and the vehicle's marker) and stop it. Field errors from the simulator service show under their fields.
// This file keeps what the parts share: the trip (the map draws it, the form edits it), the
// watched run and the actions; the parts are the form, the watched run, the route to save and the
// runs table.
export function SimulatorPanel({ appId, csrfToken, tiles, vehicles, routes, templates, runs, attribution }: Props) {
  const router = useRouter();
  const [trip, setTrip] = useState<Trip>({
    vehicleId: String(vehicles[0]?.vehicleId ?? ""),
    way: "points",
    start: { latitude: "", longitude: "" },
    end: { latitude: "", longitude: "" },
    routeId: "",
    templateId: "",
  });
  const onTrip = useCallback((change: Partial<Trip>) => setTrip((t) => ({ ...t, ...change })), []);
  const { watched, mode, problem, watch } = useWatchedRun(appId, runs.find((r) => r.status === "running")?.id ?? null);
  const { errors, setErrors, message, setMessage, pending, send } = useSimulatorPost(appId, csrfToken);
  const { way, start, end, routeId, templateId } = trip;

  const startPoint = toPoint(start.latitude, start.longitude);
  const endPoint = toPoint(end.latitude, end.longitude);

  // A click places the start, then the end; a third click starts a new pair.
  const pick = useCallback(
    (p: LatLon) => {
      const value = { latitude: fixed(p.latitude), longitude: fixed(p.longitude) };
      if (!startPoint || endPoint) onTrip({ way: "points", start: value, end: { latitude: "", longitude: "" } });
      else onTrip({ way: "points", end: value });
    },
    [startPoint, endPoint, onTrip],
  );

  const chosenGeometry = useMemo(() => {
    if (way === "route") return routes.find((r) => String(r.id) === routeId)?.geometry ?? [];
    if (way === "template") return templates.find((t) => t.id === templateId)?.geometry ?? [];
    return [];
  }, [way, routeId, templateId, routes, templates]);
  const drawn =
    watched && watched.simulation.status === "running"
      ? watched.geometry
      : chosenGeometry.length
        ? chosenGeometry
        : (watched?.geometry ?? []);
  const vehicleTitle = (id: number) => vehicles.find((v) => v.vehicleId === id)?.label ?? `Vehicle ${id}`;

  async function startRun(fields: Record<string, string>) {
    setMessage(null);
    const reveal = await send("start-simulation", fields);
    if (!reveal) return;
    setErrors({});
    watch(Number(reveal.runId));
    setMessage({
      tone: "ok",
      text:
        reveal.status === "finished" ? `Run ${reveal.runId} posted the whole trip.` : `Run ${reveal.runId} started.`,
    });
    router.refresh();
  }

  async function stopRun(run: { id: number; vehicleId: number }) {
    const reveal = await send("stop-simulation", { vehicleId: String(run.vehicleId), runId: String(run.id) });
    if (!reveal) return;
    setMessage({ tone: "ok", text: `Run ${run.id} stopped: the vehicle parks where it is.` });
    router.refresh();
  }

  async function saveRoute(name: string): Promise<boolean> {
    const reveal = await send("save-route", {
      name,
      startLatitude: start.latitude,
      startLongitude: start.longitude,
      endLatitude: end.latitude,
      endLongitude: end.longitude,
    });
    if (!reveal) return false;
    setErrors({});
    setMessage({ tone: "ok", text: `Saved as route ${reveal.routeId}.` });
    router.refresh();
    return true;
  }

  const live = watched?.simulation;
  const position = watched?.position ?? null;

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <section aria-label="Simulator map" className="flex min-w-0 flex-col gap-2">
          <div className="relative h-[55vh] min-h-80 overflow-hidden rounded-xl border border-slate-200 bg-slate-100 shadow-sm">
            <LazySimulatorMap
              tiles={tiles}
              start={way === "points" ? startPoint : null}
              end={way === "points" ? endPoint : null}
              route={drawn}
              vehicle={
                position && live
                  ? { ...position, vehicleId: live.vehicleId, title: vehicleTitle(live.vehicleId) }
                  : null
              }
              onPick={pick}
            />
          </div>
          <p className="text-sm text-slate-700">
            Click the map to place the start (A), then the end (B). Routes run on the roads of Columbus, OH and
            Washington, DC.
          </p>
          <p className="text-xs text-slate-700" data-testid="road-attribution">
            Road data: {attribution.replace(/\s*\(https?:\/\/\S+\)$/, "")} (
            <a className="text-blue-700 underline" href="https://www.openstreetmap.org/copyright">
              openstreetmap.org/copyright
            </a>
            )
          </p>
        </section>

        <SimulatorForm
          vehicles={vehicles}
          routes={routes}
          templates={templates}
          trip={trip}
          onTrip={onTrip}
          errors={errors}
          message={message}
          pending={pending}
          onStart={startRun}
        />
      </div>

      {live ? (
        <WatchedRun
          live={live}
          title={vehicleTitle(live.vehicleId)}
          pending={pending}
          mode={mode}
          problem={problem}
          onStop={stopRun}
        />
      ) : null}

      <SaveRoute
        shown={way === "points" && startPoint !== null && endPoint !== null}
        error={errors.name}
        pending={pending}
        onSave={saveRoute}
      />

      <RunsTable
        runs={runs}
        live={live}
        pending={pending}
        vehicleTitle={vehicleTitle}
        onWatch={(r) => {
          watch(r.id);
          onTrip({ vehicleId: String(r.vehicleId) });
        }}
        onStop={stopRun}
      />
    </div>
  );
}
