import { FieldFrame } from "@/components/ui/field";
import type { SimulatorOverview } from "@/server/surfaces/console/simulator";
import { aria, control } from "./controls";

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
};

// The start form's trip: the vehicle and the way it drives (clicked points, a saved route or a
// template). Its state is the panel's, because the map draws and sets it too.
export function TripFields({ vehicles, routes, templates, trip, onTrip, errors }: Props) {
  const { vehicleId, way, start, end, routeId, templateId } = trip;
  return (
    <>
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
    </>
  );
}
