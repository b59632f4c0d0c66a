import { useState, type FormEvent } from "react";
import { FieldFrame } from "@/components/ui/field";
import type { SimulatorOverview } from "@/server/surfaces/console/simulator";
import { aria, control, FieldMessage } from "./controls";
import type { PanelMessage } from "./use-simulator-post";

const EVENT_KEYS = [
  "VEHICLE_EVENT_HARSH_DECEL",
  "VEHICLE_EVENT_HARSH_ACCEL",
  "VEHICLE_EVENT_HARSH_LEFT",
  "VEHICLE_EVENT_HARSH_RIGHT",
  "VEHICLE_EVENT_IMPACT",
  "GEN_DTC",
] as const;
const EVENT_LABEL: Record<(typeof EVENT_KEYS)[number], string> = {
  VEHICLE_EVENT_HARSH_DECEL: "Harsh braking",
  VEHICLE_EVENT_HARSH_ACCEL: "Harsh acceleration",
  VEHICLE_EVENT_HARSH_LEFT: "Harsh left turn",
  VEHICLE_EVENT_HARSH_RIGHT: "Harsh right turn",
  VEHICLE_EVENT_IMPACT: "Impact",
  GEN_DTC: "Trouble code (P0420)",
};

type Event = { key: (typeof EVENT_KEYS)[number]; at: string };
type Way = "points" | "route" | "template";
type Coordinates = { latitude: string; longitude: string };

/** Where the run drives, shared with the map: the vehicle, the way and the way's choice. */
export type Trip = {
  vehicleId: string;
  way: Way;
  start: Coordinates;
  end: Coordinates;
  routeId: string;
  templateId: string;
};

type Props = Pick<SimulatorOverview, "vehicles" | "routes" | "templates"> & {
  trip: Trip;
  onTrip: (change: Partial<Trip>) => void;
  errors: Record<string, string>;
  message: PanelMessage | null;
  pending: boolean;
  /** Starts the run with the form's fields (start-simulation's, without the app and CSRF token). */
  onStart: (fields: Record<string, string>) => void;
};

// The start form: the trip (whose state the panel keeps, for the map), then the mode, the data and
// the injected events, which only this form uses. Field errors come from the simulator service.
export function SimulatorForm({ vehicles, routes, templates, trip, onTrip, errors, message, pending, onStart }: Props) {
  const { vehicleId, way, start, end, routeId, templateId } = trip;
  const [mode, setMode] = useState<"realtime" | "instant">("realtime");
  const [speedUp, setSpeedUp] = useState("10");
  const [collectionPeriod, setCollectionPeriod] = useState("10");
  const [seed, setSeed] = useState("");
  const [lowBattery, setLowBattery] = useState(false);
  const [events, setEvents] = useState<Event[]>([]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onStart({
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
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Start a simulation"
      className="flex min-w-0 flex-col gap-4"
      noValidate
      aria-busy={pending}
    >
      <FieldFrame id="sim-vehicle" label="Sandbox vehicle" error={errors.vehicleId}>
        <select
          {...aria("sim-vehicle", errors.vehicleId)}
          className={control(errors.vehicleId)}
          value={vehicleId}
          onChange={(e) => onTrip({ vehicleId: e.target.value })}
        >
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
              <input
                type="radio"
                name="way"
                value={value}
                checked={way === value}
                onChange={() => onTrip({ way: value })}
                className="h-5 w-5"
              />{" "}
              {label}
            </label>
          ))}
        </div>
        {way === "points" ? (
          <div className="grid grid-cols-2 gap-2">
            <FieldFrame id="sim-start-lat" label="Start latitude" error={errors.start}>
              <input
                {...aria("sim-start-lat", errors.start)}
                className={control(errors.start)}
                inputMode="decimal"
                value={start.latitude}
                onChange={(e) => onTrip({ start: { ...start, latitude: e.target.value } })}
              />
            </FieldFrame>
            <FieldFrame id="sim-start-lon" label="Start longitude">
              <input
                id="sim-start-lon"
                className={control(errors.start)}
                inputMode="decimal"
                value={start.longitude}
                onChange={(e) => onTrip({ start: { ...start, longitude: e.target.value } })}
              />
            </FieldFrame>
            <FieldFrame id="sim-end-lat" label="End latitude" error={errors.end}>
              <input
                {...aria("sim-end-lat", errors.end)}
                className={control(errors.end)}
                inputMode="decimal"
                value={end.latitude}
                onChange={(e) => onTrip({ end: { ...end, latitude: e.target.value } })}
              />
            </FieldFrame>
            <FieldFrame id="sim-end-lon" label="End longitude">
              <input
                id="sim-end-lon"
                className={control(errors.end)}
                inputMode="decimal"
                value={end.longitude}
                onChange={(e) => onTrip({ end: { ...end, longitude: e.target.value } })}
              />
            </FieldFrame>
          </div>
        ) : null}
        {way === "route" ? (
          <FieldFrame id="sim-route" label="Saved route" error={errors.routeId}>
            <select
              {...aria("sim-route", errors.routeId)}
              className={control(errors.routeId)}
              value={routeId}
              onChange={(e) => onTrip({ routeId: e.target.value })}
            >
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
            <select
              {...aria("sim-template", errors.templateId)}
              className={control(errors.templateId)}
              value={templateId}
              onChange={(e) => onTrip({ templateId: e.target.value })}
            >
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
            <input
              type="radio"
              name="mode"
              value="realtime"
              checked={mode === "realtime"}
              onChange={() => setMode("realtime")}
              className="h-5 w-5"
            />{" "}
            Real time
          </label>
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="radio"
              name="mode"
              value="instant"
              checked={mode === "instant"}
              onChange={() => setMode("instant")}
              className="h-5 w-5"
            />{" "}
            Instant backfill (a past trip)
          </label>
        </div>
        <FieldMessage id="sim-mode" error={errors.mode} />
      </fieldset>
      <div className="grid grid-cols-2 gap-2">
        {mode === "realtime" ? (
          <FieldFrame id="sim-speed-up" label="Speed-up (1–60×)" error={errors.speedUp}>
            <input
              {...aria("sim-speed-up", errors.speedUp)}
              className={control(errors.speedUp)}
              inputMode="numeric"
              value={speedUp}
              onChange={(e) => setSpeedUp(e.target.value)}
            />
          </FieldFrame>
        ) : null}
        <FieldFrame id="sim-period" label="Collection period (s)" error={errors.collectionPeriod}>
          <input
            {...aria("sim-period", errors.collectionPeriod)}
            className={control(errors.collectionPeriod)}
            inputMode="numeric"
            value={collectionPeriod}
            onChange={(e) => setCollectionPeriod(e.target.value)}
          />
        </FieldFrame>
        <FieldFrame id="sim-seed" label="Seed (optional)" error={errors.seed}>
          <input
            {...aria("sim-seed", errors.seed)}
            className={control(errors.seed)}
            inputMode="numeric"
            value={seed}
            onChange={(e) => setSeed(e.target.value)}
          />
        </FieldFrame>
      </div>
      <label className="flex min-h-11 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={lowBattery}
          onChange={(e) => setLowBattery(e.target.checked)}
          className="h-5 w-5"
        />{" "}
        Low battery (11.3–11.9 V)
      </label>

      <fieldset className="flex min-w-0 flex-col gap-2">
        <legend className="text-sm font-medium text-slate-800">Injected events</legend>
        {events.map((ev, i) => (
          <div key={i} className="grid grid-cols-[minmax(0,1fr)_6rem_auto] items-end gap-2">
            <FieldFrame id={`sim-event-${i}`} label={`Event ${i + 1}`}>
              <select
                id={`sim-event-${i}`}
                className={control()}
                value={ev.key}
                onChange={(e) =>
                  setEvents(events.map((x, j) => (j === i ? { ...x, key: e.target.value as Event["key"] } : x)))
                }
              >
                {EVENT_KEYS.map((k) => (
                  <option key={k} value={k}>
                    {EVENT_LABEL[k]}
                  </option>
                ))}
              </select>
            </FieldFrame>
            <FieldFrame id={`sim-event-at-${i}`} label="At (0–1)">
              <input
                id={`sim-event-at-${i}`}
                className={control()}
                inputMode="decimal"
                value={ev.at}
                onChange={(e) => setEvents(events.map((x, j) => (j === i ? { ...x, at: e.target.value } : x)))}
              />
            </FieldFrame>
            <button
              type="button"
              className="min-h-11 rounded-lg border border-slate-300 px-3 text-sm"
              onClick={() => setEvents(events.filter((_, j) => j !== i))}
              aria-label={`Remove event ${i + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <FieldMessage id="sim-events" error={errors.events} />
        <div>
          <button
            type="button"
            className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold"
            onClick={() => setEvents([...events, { key: "VEHICLE_EVENT_HARSH_DECEL", at: "0.5" }])}
            disabled={events.length >= 50}
          >
            Add an event
          </button>
        </div>
      </fieldset>

      {message ? (
        <p
          role={message.tone === "error" ? "alert" : "status"}
          className={`rounded-lg px-3 py-2 text-sm ${message.tone === "error" ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-900"}`}
        >
          {message.text}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          disabled={pending || !vehicleId}
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:bg-blue-300"
        >
          {pending ? "Working…" : "Start simulation"}
        </button>
      </div>
    </form>
  );
}
