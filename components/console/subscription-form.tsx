"use client";

import { useState } from "react";
import { EVENT_TYPES, type EventType, type Scope } from "@/common/subscriptions/event-types";
import { SelectField, SubmitButton, TextField } from "./fields";

type Target = { id: number; label: string };
type Props = { vehicles: Target[]; accounts: Target[] };

const SCOPE_LABEL: Record<Scope, string> = {
  VEHICLE: "One vehicle",
  ACCOUNT: "Every vehicle of an account",
  SYSTEM: "The whole app (system)",
};
const DAYS = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"] as const;
const typesFor = (scope: Scope) =>
  (Object.keys(EVENT_TYPES) as EventType[]).filter((t) => (EVENT_TYPES[t].scopes as readonly Scope[]).includes(scope));

// Only valid combinations are offered: the types of the chosen scope, the periods of the chosen
// type (common/subscriptions/event-types.ts), and the criteria fields of that type. The server
// checks everything again; its field errors appear under the fields.
export function SubscriptionFields({ vehicles, accounts }: Props) {
  const [scope, setScope] = useState<Scope>(vehicles.length ? "VEHICLE" : accounts.length ? "ACCOUNT" : "SYSTEM");
  const [type, setType] = useState<EventType>(typesFor(scope)[0]!);
  const [delivery, setDelivery] = useState<"NONE" | "HTTP_POST" | "EMAIL">("NONE");
  const types = typesFor(scope);
  const chosen = types.includes(type) ? type : types[0]!;
  const targets = scope === "VEHICLE" ? vehicles : scope === "ACCOUNT" ? accounts : [];

  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField name="scope" label="Scope" value={scope} onChange={(e) => setScope(e.target.value as Scope)}>
        {(["VEHICLE", "ACCOUNT", "SYSTEM"] as const).map((s) => (
          <option
            key={s}
            value={s}
            disabled={(s === "VEHICLE" && !vehicles.length) || (s === "ACCOUNT" && !accounts.length)}
          >
            {SCOPE_LABEL[s]}
          </option>
        ))}
      </SelectField>
      {scope !== "SYSTEM" ? (
        <SelectField name="target" label={scope === "VEHICLE" ? "Vehicle" : "Account"} key={scope}>
          {targets.map((t) => (
            <option key={t.id} value={t.id}>
              {t.label}
            </option>
          ))}
        </SelectField>
      ) : (
        <input type="hidden" name="target" value="" />
      )}
      <SelectField name="type" label="Event type" value={chosen} onChange={(e) => setType(e.target.value as EventType)}>
        {types.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </SelectField>
      <SelectField name="notificationPeriod" label="Notification period" key={`period-${chosen}`}>
        {EVENT_TYPES[chosen].periods.map((p) => (
          <option key={p} value={p}>
            {p}
          </option>
        ))}
      </SelectField>
      <TextField
        name="minimumTime"
        label="Minimum minutes between notifications"
        inputMode="numeric"
        defaultValue="0"
      />
      <SelectField
        name="delivery"
        label="Delivery"
        value={delivery}
        onChange={(e) => setDelivery(e.target.value as typeof delivery)}
        hint="Without a delivery, notifications are still readable here and through the API."
      >
        <option value="NONE">None (read through the API)</option>
        <option value="HTTP_POST">HTTPS POST (webhook)</option>
        <option value="EMAIL">E-mail</option>
      </SelectField>
      {delivery === "HTTP_POST" ? (
        <TextField name="postUrl" label="Webhook URL (https)" type="url" className="sm:col-span-2" />
      ) : null}
      {delivery === "EMAIL" ? (
        <TextField name="recipient" label="Recipient e-mail" type="email" className="sm:col-span-2" />
      ) : null}

      {chosen === "GEOFENCE" ? (
        <>
          <TextField name="latitude" label="Centre latitude" inputMode="decimal" />
          <TextField name="longitude" label="Centre longitude" inputMode="decimal" />
          <TextField name="radius" label="Radius (miles)" inputMode="decimal" />
          <SelectField name="boundaryCondition" label="Fires when the vehicle is">
            <option value="INSIDE">INSIDE</option>
            <option value="OUTSIDE">OUTSIDE</option>
          </SelectField>
        </>
      ) : null}
      {chosen === "GEOFENCE" || chosen === "TIMEOFDAY" ? (
        <SelectField name="ignitionStatus" label="Ignition filter" defaultValue={chosen === "TIMEOFDAY" ? "ON" : "ANY"}>
          {["ANY", "ON", "OFF", "RUNNING"].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
      ) : null}
      {chosen === "NUMERICDATAKEY" ? (
        <>
          <TextField name="dataKey" label="Data key" placeholder="GEN_SPEED" />
          <SelectField name="relationship" label="Relationship">
            <option value="ABOVE">ABOVE</option>
            <option value="BELOW">BELOW</option>
            <option value="EQUALTO">EQUALTO</option>
          </SelectField>
          <TextField name="thresholdValue" label="Threshold value" inputMode="decimal" />
        </>
      ) : null}
      {chosen === "TIMEOFDAY" ? (
        <>
          <TextField name="startTime" label="Window start (HH:MM)" placeholder="07:00" />
          <TextField name="endTime" label="Window end (HH:MM)" placeholder="19:00" />
          <fieldset className="sm:col-span-2">
            <legend className="text-sm font-medium text-slate-800">Days of the window</legend>
            <div className="mt-1 flex flex-wrap gap-3">
              {DAYS.map((d) => (
                <label key={d} className="flex min-h-11 items-center gap-2 text-sm">
                  <input type="checkbox" name="daysOfWeek" value={d} defaultChecked className="h-5 w-5" /> {d}
                </label>
              ))}
            </div>
          </fieldset>
        </>
      ) : null}
      <div className="sm:col-span-2">
        <SubmitButton>Create subscription</SubmitButton>
      </div>
    </div>
  );
}
