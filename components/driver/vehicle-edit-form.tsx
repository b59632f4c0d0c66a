"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { DriverVehicle } from "@/server/surfaces/driver/views";
import { FormMessage } from "./form-message";
import { formText, sendJson } from "./send";

// Edits label, VIN, device and auto-assignment (POST /me/vehicles/{id}); the API's field errors
// are shown on their fields. An emptied text field clears it.
export function VehicleEditForm({ vehicle }: { vehicle: DriverVehicle }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { label, vin, deviceId } = formText(form);
    const autoAssignDevice = (form.elements.namedItem("autoAssignDevice") as HTMLInputElement).checked;
    setPending(true);
    setSaved(null);
    const sent = await sendJson<{ vehicle: DriverVehicle }>("POST", `/me/vehicles/${vehicle.vehicleId}`, {
      label,
      vin,
      deviceId,
      autoAssignDevice,
    });
    setPending(false);
    if (sent.ok) {
      setFields({});
      setError(null);
      setSaved("Saved.");
      router.refresh();
      return;
    }
    setFields(sent.fields);
    setError(sent.message);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Edit vehicle" className="flex flex-col gap-4">
      <FormMessage error={error} success={saved} />
      <Field
        name="label"
        label="Label"
        defaultValue={vehicle.label ?? ""}
        maxLength={100}
        error={fields.label}
        hint="Leave empty to show the vehicle's type instead."
      />
      <Field
        name="vin"
        label="VIN"
        defaultValue={vehicle.vin ?? ""}
        autoCapitalize="characters"
        spellCheck={false}
        error={fields.vin}
        hint="17 characters; the year and make are decoded from it."
      />
      <Field
        name="deviceId"
        label="Device serial number"
        defaultValue={vehicle.deviceId ?? ""}
        autoCapitalize="none"
        spellCheck={false}
        error={fields.deviceId}
        hint="Leave empty to detach the device."
      />
      <div className="flex flex-col gap-1">
        <label className="flex min-h-11 items-center gap-3 text-sm font-medium text-slate-800">
          <input
            type="checkbox"
            name="autoAssignDevice"
            defaultChecked={vehicle.autoAssignDevice}
            className="h-5 w-5"
            aria-describedby="auto-assign-hint"
          />
          Let devices move to or from this vehicle automatically
        </label>
        <p id="auto-assign-hint" className="text-xs text-slate-600">
          When on, a device reporting for another vehicle of yours can be reassigned here (and this one&apos;s device
          elsewhere).
        </p>
        {fields.autoAssignDevice ? <p className="text-sm text-red-700">{fields.autoAssignDevice}</p> : null}
      </div>
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Saving…" : "Save changes"}
      </Button>
    </form>
  );
}
