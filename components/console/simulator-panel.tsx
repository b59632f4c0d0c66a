"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useMemo, useState, type FormEvent } from "react";
import { LazySimulatorMap } from "@/components/map/lazy";
import type { LatLon } from "@/components/map/simulator-map";
import type { Tiles } from "@/components/map/tiles";
import { FieldFrame } from "@/components/ui/field";
import type { SimulatorOverview } from "@/server/console/simulator";
import type { SimulationOut } from "@/server/simulator/schemas";
import { DataTable } from "./data-table";
import { isoFromWire, LocalTime } from "./local-time";

/** How often a watched run is read again. */
const POLL_MS = 2000;
const EVENT_KEYS = ["VEHICLE_EVENT_HARSH_DECEL", "VEHICLE_EVENT_HARSH_ACCEL", "VEHICLE_EVENT_HARSH_LEFT", "VEHICLE_EVENT_HARSH_RIGHT", "VEHICLE_EVENT_IMPACT", "GEN_DTC"] as const;
const EVENT_LABEL: Record<(typeof EVENT_KEYS)[number], string> = {
  VEHICLE_EVENT_HARSH_DECEL: "Harsh braking",
  VEHICLE_EVENT_HARSH_ACCEL: "Harsh acceleration",
  VEHICLE_EVENT_HARSH_LEFT: "Harsh left turn",
  VEHICLE_EVENT_HARSH_RIGHT: "Harsh right turn",
  VEHICLE_EVENT_IMPACT: "Impact",
  GEN_DTC: "Trouble code (P0420)",
};

type Way = "points" | "route" | "template";
type Event = { key: (typeof EVENT_KEYS)[number]; at: string };
type Watched = { simulation: SimulationOut; position: LatLon | null; geometry: LatLon[] };
type Failure = { error?: string; fieldErrors?: { fieldName: string; errorDisplay: string }[] };

type Props = { appId: number; csrfToken: string; tiles: Tiles } & SimulatorOverview;

const fixed = (n: number) => n.toFixed(6);
const toPoint = (lat: string, lon: string): LatLon | null => {
  const latitude = Number(lat);
  const longitude = Number(lon);
  return lat.trim() && lon.trim() && Number.isFinite(latitude) && Number.isFinite(longitude) ? { latitude, longitude } : null;
};

async function post(action: string, fields: Record<string, string>): Promise<{ ok: true; reveal: Record<string, string | number> } | { ok: false; status: number; failure: Failure }> {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  try {
    const res = await fetch(`/console/actions/${action}`, { method: "POST", body, headers: { Accept: "application/json" } });
    const json = (await res.json().catch(() => null)) as ({ reveal?: Record<string, string | number> } & Failure) | null;
    if (res.ok && json) return { ok: true, reveal: json.reveal ?? {} };
    return { ok: false, status: res.status, failure: json ?? { error: `The request failed (${res.status}).` } };
  } catch {
    return { ok: false, status: 0, failure: { error: "The console could not be reached. Check your connection and try again." } };
  }
}

function FieldMessage({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p id={`${id}-error`} className="text-sm text-red-700">
      {error}
    </p>
  ) : null;
}

const control = (error?: string) => `min-h-11 w-full rounded-lg border bg-white px-3 py-2 text-base shadow-sm ${error ? "border-red-600" : "border-slate-300"}`;
const aria = (id: string, error?: string, hint?: boolean) => ({
  id,
  "aria-invalid": error ? true : undefined,
  "aria-describedby": [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined,
});

const percent = (p: number) => `${Math.round(p * 100)} %`;

// The sandbox simulator page's client part: choose a vehicle and a way (clicked start and end, a
// saved route or a template), the mode and the data, start through POST /console/actions/
// start-simulation, then watch the run (GET …/simulator/runs/{id} every 2 s: progress and the
// vehicle's marker) and stop it. Field errors from the simulator service show under their fields.
export function SimulatorPanel({ appId, csrfToken, tiles, vehicles, routes, templates, runs, attribution }: Props) {
  const router = useRouter();
  const [vehicleId, setVehicleId] = useState(String(vehicles[0]?.vehicleId ?? ""));
  const [way, setWay] = useState<Way>("points");
  const [start, setStart] = useState({ latitude: "", longitude: "" });
  const [end, setEnd] = useState({ latitude: "", longitude: "" });
  const [routeId, setRouteId] = useState("");
  const [templateId, setTemplateId] = useState("");
  const [mode, setMode] = useState<"realtime" | "instant">("realtime");
  const [speedUp, setSpeedUp] = useState("10");
  const [collectionPeriod, setCollectionPeriod] = useState("10");
  const [seed, setSeed] = useState("");
  const [lowBattery, setLowBattery] = useState(false);
  const [events, setEvents] = useState<Event[]>([]);
  const [routeName, setRouteName] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: "error" | "ok"; text: string } | null>(null);
  const [pending, setPending] = useState(false);
  const running = runs.find((r) => r.status === "running");
  const [watchedId, setWatchedId] = useState<number | null>(running?.id ?? null);
  const [watched, setWatched] = useState<Watched | null>(null);
  const [pollProblem, setPollProblem] = useState<string | null>(null);

  const startPoint = toPoint(start.latitude, start.longitude);
  const endPoint = toPoint(end.latitude, end.longitude);

  // A click places the start, then the end; a third click starts a new pair.
  const pick = useCallback(
    (p: LatLon) => {
      setWay("points");
      const value = { latitude: fixed(p.latitude), longitude: fixed(p.longitude) };
      if (!startPoint || endPoint) {
        setStart(value);
        setEnd({ latitude: "", longitude: "" });
      } else setEnd(value);
    },
    [startPoint, endPoint],
  );

  useEffect(() => {
    if (watchedId === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await fetch(`/console/apps/${appId}/simulator/runs/${watchedId}`, { cache: "no-store", headers: { Accept: "application/json" } });
        if (!res.ok) throw new Error(`the console answered ${res.status}`);
        const body = (await res.json()) as Watched;
        if (stopped) return;
        setWatched(body);
        setPollProblem(null);
        if (body.simulation.status !== "running") {
          // Finished or stopped: the list below changes, and there is nothing more to watch.
          router.refresh();
          return;
        }
      } catch (error) {
        if (!stopped) setPollProblem(error instanceof Error ? error.message : "no answer");
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [appId, watchedId, router]);

  const chosenGeometry = useMemo(() => {
    if (way === "route") return routes.find((r) => String(r.id) === routeId)?.geometry ?? [];
    if (way === "template") return templates.find((t) => t.id === templateId)?.geometry ?? [];
    return [];
  }, [way, routeId, templateId, routes, templates]);
  const drawn = watched && watched.simulation.status === "running" ? watched.geometry : chosenGeometry.length ? chosenGeometry : (watched?.geometry ?? []);
  const vehicleTitle = (id: number) => vehicles.find((v) => v.vehicleId === id)?.label ?? `Vehicle ${id}`;

  function fail(failure: Failure) {
    setErrors(Object.fromEntries((failure.fieldErrors ?? []).map((e) => [e.fieldName, e.errorDisplay])));
    setMessage({ tone: "error", text: failure.error ?? "The request failed." });
  }

  async function startRun(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setPending(true);
    setMessage(null);
    const result = await post("start-simulation", {
      csrfToken,
      appId: String(appId),
      vehicleId,
      way,
      startLatitude: start.latitude,
      startLongitude: start.longitude,
      endLatitude: end.latitude,
      endLongitude: end.longitude,
      routeId,
      templateId,
      mode,
      speedUp,
      collectionPeriod,
      seed,
      ...(lowBattery ? { lowBattery: "on" } : {}),
      events: JSON.stringify(events.map((e) => ({ key: e.key, at: e.at }))),
    });
    setPending(false);
    if (!result.ok) return fail(result.failure);
    setErrors({});
    setWatched(null);
    setWatchedId(Number(result.reveal.runId));
    setMessage({ tone: "ok", text: result.reveal.status === "finished" ? `Run ${result.reveal.runId} posted the whole trip.` : `Run ${result.reveal.runId} started.` });
    router.refresh();
  }

  async function stopRun(run: { id: number; vehicleId: number }) {
    setPending(true);
    const result = await post("stop-simulation", { csrfToken, appId: String(appId), vehicleId: String(run.vehicleId), runId: String(run.id) });
    setPending(false);
    if (!result.ok) return fail(result.failure);
    setMessage({ tone: "ok", text: `Run ${run.id} stopped: the vehicle parks where it is.` });
    router.refresh();
  }

  async function saveRoute() {
    setPending(true);
    const result = await post("save-route", { csrfToken, appId: String(appId), name: routeName, startLatitude: start.latitude, startLongitude: start.longitude, endLatitude: end.latitude, endLongitude: end.longitude });
    setPending(false);
    if (!result.ok) return fail(result.failure);
    setErrors({});
    setMessage({ tone: "ok", text: `Saved as route ${result.reveal.routeId}.` });
    setRouteName("");
    router.refresh();
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
              vehicle={position && live ? { ...position, vehicleId: live.vehicleId, title: vehicleTitle(live.vehicleId) } : null}
              onPick={pick}
            />
          </div>
          <p className="text-sm text-slate-700">Click the map to place the start (A), then the end (B). Routes run on the roads of Columbus, OH and Washington, DC.</p>
          <p className="text-xs text-slate-700" data-testid="road-attribution">
            Road data: {attribution.replace(/\s*\(https?:\/\/\S+\)$/, "")} (
            <a className="text-blue-700 underline" href="https://www.openstreetmap.org/copyright">
              openstreetmap.org/copyright
            </a>
            )
          </p>
        </section>

        <form onSubmit={startRun} aria-label="Start a simulation" className="flex min-w-0 flex-col gap-4" noValidate aria-busy={pending}>
          <FieldFrame id="sim-vehicle" label="Sandbox vehicle" error={errors.vehicleId}>
            <select {...aria("sim-vehicle", errors.vehicleId)} className={control(errors.vehicleId)} value={vehicleId} onChange={(e) => setVehicleId(e.target.value)}>
              {vehicles.map((v) => (
                <option key={v.vehicleId} value={v.vehicleId}>
                  {v.label} (vehicle {v.vehicleId})
                </option>
              ))}
            </select>
          </FieldFrame>

          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="text-sm font-medium text-slate-800">Where to drive</legend>
            <div className="flex flex-wrap gap-x-4">
              {(
                [
                  ["points", "Clicked start and end"],
                  ["route", "Saved route"],
                  ["template", "Template"],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="flex min-h-11 items-center gap-2 text-sm">
                  <input type="radio" name="way" value={value} checked={way === value} onChange={() => setWay(value)} className="h-5 w-5" /> {label}
                </label>
              ))}
            </div>
            {way === "points" ? (
              <div className="grid grid-cols-2 gap-2">
                <FieldFrame id="sim-start-lat" label="Start latitude" error={errors.start}>
                  <input {...aria("sim-start-lat", errors.start)} className={control(errors.start)} inputMode="decimal" value={start.latitude} onChange={(e) => setStart({ ...start, latitude: e.target.value })} />
                </FieldFrame>
                <FieldFrame id="sim-start-lon" label="Start longitude">
                  <input id="sim-start-lon" className={control(errors.start)} inputMode="decimal" value={start.longitude} onChange={(e) => setStart({ ...start, longitude: e.target.value })} />
                </FieldFrame>
                <FieldFrame id="sim-end-lat" label="End latitude" error={errors.end}>
                  <input {...aria("sim-end-lat", errors.end)} className={control(errors.end)} inputMode="decimal" value={end.latitude} onChange={(e) => setEnd({ ...end, latitude: e.target.value })} />
                </FieldFrame>
                <FieldFrame id="sim-end-lon" label="End longitude">
                  <input id="sim-end-lon" className={control(errors.end)} inputMode="decimal" value={end.longitude} onChange={(e) => setEnd({ ...end, longitude: e.target.value })} />
                </FieldFrame>
              </div>
            ) : null}
            {way === "route" ? (
              <FieldFrame id="sim-route" label="Saved route" error={errors.routeId}>
                <select {...aria("sim-route", errors.routeId)} className={control(errors.routeId)} value={routeId} onChange={(e) => setRouteId(e.target.value)}>
                  <option value="">{routes.length ? "Choose a route" : "No saved routes yet"}</option>
                  {routes.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name} ({r.lengthMiles} mi)
                    </option>
                  ))}
                </select>
              </FieldFrame>
            ) : null}
            {way === "template" ? (
              <FieldFrame id="sim-template" label="Template" error={errors.templateId}>
                <select {...aria("sim-template", errors.templateId)} className={control(errors.templateId)} value={templateId} onChange={(e) => setTemplateId(e.target.value)}>
                  <option value="">Choose a template</option>
                  {templates.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name} ({t.lengthMiles} mi)
                    </option>
                  ))}
                </select>
              </FieldFrame>
            ) : null}
          </fieldset>

          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="text-sm font-medium text-slate-800">Mode</legend>
            <div className="flex flex-wrap gap-x-4">
              <label className="flex min-h-11 items-center gap-2 text-sm">
                <input type="radio" name="mode" value="realtime" checked={mode === "realtime"} onChange={() => setMode("realtime")} className="h-5 w-5" /> Real time
              </label>
              <label className="flex min-h-11 items-center gap-2 text-sm">
                <input type="radio" name="mode" value="instant" checked={mode === "instant"} onChange={() => setMode("instant")} className="h-5 w-5" /> Instant backfill (a past trip)
              </label>
            </div>
            <FieldMessage id="sim-mode" error={errors.mode} />
          </fieldset>
          <div className="grid grid-cols-2 gap-2">
            {mode === "realtime" ? (
              <FieldFrame id="sim-speed-up" label="Speed-up (1–60×)" error={errors.speedUp}>
                <input {...aria("sim-speed-up", errors.speedUp)} className={control(errors.speedUp)} inputMode="numeric" value={speedUp} onChange={(e) => setSpeedUp(e.target.value)} />
              </FieldFrame>
            ) : null}
            <FieldFrame id="sim-period" label="Collection period (s)" error={errors.collectionPeriod}>
              <input {...aria("sim-period", errors.collectionPeriod)} className={control(errors.collectionPeriod)} inputMode="numeric" value={collectionPeriod} onChange={(e) => setCollectionPeriod(e.target.value)} />
            </FieldFrame>
            <FieldFrame id="sim-seed" label="Seed (optional)" error={errors.seed}>
              <input {...aria("sim-seed", errors.seed)} className={control(errors.seed)} inputMode="numeric" value={seed} onChange={(e) => setSeed(e.target.value)} />
            </FieldFrame>
          </div>
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input type="checkbox" checked={lowBattery} onChange={(e) => setLowBattery(e.target.checked)} className="h-5 w-5" /> Low battery (11.3–11.9 V)
          </label>

          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="text-sm font-medium text-slate-800">Injected events</legend>
            {events.map((ev, i) => (
              <div key={i} className="grid grid-cols-[minmax(0,1fr)_6rem_auto] items-end gap-2">
                <FieldFrame id={`sim-event-${i}`} label={`Event ${i + 1}`}>
                  <select id={`sim-event-${i}`} className={control()} value={ev.key} onChange={(e) => setEvents(events.map((x, j) => (j === i ? { ...x, key: e.target.value as Event["key"] } : x)))}>
                    {EVENT_KEYS.map((k) => (
                      <option key={k} value={k}>
                        {EVENT_LABEL[k]}
                      </option>
                    ))}
                  </select>
                </FieldFrame>
                <FieldFrame id={`sim-event-at-${i}`} label="At (0–1)">
                  <input id={`sim-event-at-${i}`} className={control()} inputMode="decimal" value={ev.at} onChange={(e) => setEvents(events.map((x, j) => (j === i ? { ...x, at: e.target.value } : x)))} />
                </FieldFrame>
                <button type="button" className="min-h-11 rounded-lg border border-slate-300 px-3 text-sm" onClick={() => setEvents(events.filter((_, j) => j !== i))} aria-label={`Remove event ${i + 1}`}>
                  Remove
                </button>
              </div>
            ))}
            <FieldMessage id="sim-events" error={errors.events} />
            <div>
              <button type="button" className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold" onClick={() => setEvents([...events, { key: "VEHICLE_EVENT_HARSH_DECEL", at: "0.5" }])} disabled={events.length >= 50}>
                Add an event
              </button>
            </div>
          </fieldset>

          {message ? (
            <p role={message.tone === "error" ? "alert" : "status"} className={`rounded-lg px-3 py-2 text-sm ${message.tone === "error" ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-900"}`}>
              {message.text}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <button type="submit" disabled={pending || !vehicleId} className="inline-flex min-h-11 items-center justify-center rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:bg-blue-300">
              {pending ? "Working…" : "Start simulation"}
            </button>
          </div>
        </form>
      </div>

      {live ? (
        <section aria-labelledby="sim-watch" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" data-testid="watched-run" data-status={live.status} data-progress={live.progress}>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="sim-watch" className="text-lg font-semibold">
              Run {live.id} · {vehicleTitle(live.vehicleId)}
            </h2>
            {live.status === "running" ? (
              <button type="button" disabled={pending} onClick={() => stopRun(live)} className="min-h-11 rounded-lg border border-red-300 bg-white px-4 text-sm font-semibold text-red-800 hover:bg-red-50">
                Stop run
              </button>
            ) : null}
          </div>
          <p className="mt-2 text-sm text-slate-800" role="status" aria-live="polite">
            {live.status === "running" ? "Running" : live.status === "finished" ? "Finished" : "Stopped"} · progress {percent(live.progress)} · {live.dataSetCount} data sets
            {live.mode === "realtime" ? ` · ${live.speedUp}× real time` : " · backfill"} · {live.routeLengthMiles} mi
            {live.stopReason ? ` · ${live.stopReason}` : ""}
          </p>
          <progress className="mt-2 h-3 w-full" max={1} value={live.progress} aria-label={`Progress of run ${live.id}`} />
          {pollProblem ? <p className="mt-2 text-sm text-red-700">Updates paused ({pollProblem}); retrying…</p> : null}
        </section>
      ) : null}

      {way === "points" && startPoint && endPoint ? (
        <section aria-labelledby="sim-save" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <h2 id="sim-save" className="text-lg font-semibold">
            Save this start and end as a route
          </h2>
          <div className="mt-3 flex flex-wrap items-end gap-2">
            <FieldFrame id="sim-route-name" label="Route name" error={errors.name}>
              <input {...aria("sim-route-name", errors.name)} className={control(errors.name)} value={routeName} onChange={(e) => setRouteName(e.target.value)} maxLength={100} />
            </FieldFrame>
            <button type="button" disabled={pending} onClick={saveRoute} className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold hover:bg-slate-50">
              Save route
            </button>
          </div>
        </section>
      ) : null}

      <section aria-labelledby="sim-runs" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="sim-runs" className="text-lg font-semibold">
          Recent runs
        </h2>
        {runs.length === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No runs yet.</p>
        ) : (
          <DataTable
            className="relative mt-3"
            label="Recent runs, scrollable"
            caption="Recent simulation runs of this app's vehicles"
            // The watched run's row follows the poll; the others are as the page loaded them.
            rows={runs.map((listed) => (live && live.id === listed.id ? live : listed))}
            rowKey={(r) => r.id}
            rowAttributes={(r) => ({ "data-testid": `run-${r.id}` })}
            columns={[
              { key: "run", header: "Run", className: "font-mono", cell: (r) => r.id },
              { key: "vehicle", header: "Vehicle", cell: (r) => vehicleTitle(r.vehicleId) },
              { key: "mode", header: "Mode", cell: (r) => (r.mode === "realtime" ? `real time ${r.speedUp}×` : "backfill") },
              { key: "status", header: "Status", cell: (r) => r.status },
              { key: "progress", header: "Progress", cell: (r) => percent(r.progress) },
              { key: "started", header: "Started", cell: (r) => <LocalTime iso={isoFromWire(r.createdAt)} wire={r.createdAt} /> },
              {
                key: "actions",
                header: <span className="sr-only">Actions</span>,
                cell: (r) => (
                  <div className="flex gap-2">
                    <button type="button" className="min-h-11 text-blue-700 underline" onClick={() => { setWatched(null); setWatchedId(r.id); setVehicleId(String(r.vehicleId)); }}>
                      Watch
                    </button>
                    {r.status === "running" ? (
                      <button type="button" disabled={pending} className="min-h-11 text-red-800 underline" onClick={() => stopRun(r)}>
                        Stop
                      </button>
                    ) : null}
                  </div>
                ),
              },
            ]}
          />
        )}
      </section>
    </div>
  );
}
