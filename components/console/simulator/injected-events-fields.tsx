import { FieldFrame } from "@/components/ui/field";
import { control, FieldMessage } from "./controls";

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

/** An event to inject, at a fraction (0–1) of the way along the trip. */
export type InjectedEvent = { key: (typeof EVENT_KEYS)[number]; at: string };

type Props = {
  events: InjectedEvent[];
  onEvents: (events: InjectedEvent[]) => void;
  error?: string;
};

// The start form's injected events: a row each, at most 50 (the simulator service's bound).
export function InjectedEventsFields({ events, onEvents: setEvents, error }: Props) {
  return (
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
                setEvents(events.map((x, j) => (j === i ? { ...x, key: e.target.value as InjectedEvent["key"] } : x)))
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
      <FieldMessage id="sim-events" error={error} />
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
  );
}
