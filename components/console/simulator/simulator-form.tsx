import { useState, type FormEvent } from "react";
import type { SimulatorOverview } from "@/server/surfaces/console/simulator";
import { InjectedEventsFields, type InjectedEvent } from "./injected-events-fields";
import { RunSettingsFields, type RunSettings } from "./run-settings-fields";
import { TripFields, type Trip } from "./trip-fields";
import type { PanelMessage } from "./use-simulator-post";

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
  const [settings, setSettings] = useState<RunSettings>({
    mode: "realtime",
    speedUp: "10",
    collectionPeriod: "10",
    seed: "",
    lowBattery: false,
  });
  const [events, setEvents] = useState<InjectedEvent[]>([]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const { mode, speedUp, collectionPeriod, seed, lowBattery } = settings;
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
      <TripFields
        vehicles={vehicles}
        routes={routes}
        templates={templates}
        trip={trip}
        onTrip={onTrip}
        errors={errors}
      />

      <RunSettingsFields
        settings={settings}
        onSettings={(change) => setSettings((current) => ({ ...current, ...change }))}
        errors={errors}
      />

      <InjectedEventsFields events={events} onEvents={setEvents} error={errors.events} />

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
          className={
            "inline-flex min-h-11 items-center justify-center rounded-lg bg-blue-700 px-4 py-2 text-sm " +
            "font-semibold text-white hover:bg-blue-800 disabled:bg-blue-300"
          }
        >
          {pending ? "Working…" : "Start simulation"}
        </button>
      </div>
    </form>
  );
}
