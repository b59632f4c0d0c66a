"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormMessage } from "./form-message";
import { formText, sendJson } from "./send";

// Adds a vehicle to the driver's account (POST /me/vehicles, the API's vehicle schema).
export function AddVehicleForm() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setPending(true);
    const { label, deviceId, vin } = formText(form);
    const sent = await sendJson<{ vehicle: { vehicleId: number } }>("POST", "/me/vehicles", { label, deviceId, vin });
    setPending(false);
    if (sent.ok) {
      router.push(`/vehicles/${sent.data.vehicle.vehicleId}`);
      return;
    }
    setFields(sent.fields);
    setError(sent.message);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Add a vehicle" className="flex flex-col gap-4">
      <FormMessage error={error} />
      <Field
        name="label"
        label="Label"
        hint="A name you know it by, e.g. “Blue car”."
        maxLength={100}
        error={fields.label}
      />
      <Field
        name="deviceId"
        label="Device serial number"
        hint="Printed on the in-vehicle device. Optional: add it later."
        autoCapitalize="none"
        spellCheck={false}
        error={fields.deviceId}
      />
      <Field
        name="vin"
        label="VIN"
        hint="17 characters. Optional: the device can report it."
        autoCapitalize="characters"
        spellCheck={false}
        error={fields.vin}
      />
      <Button type="submit" disabled={pending} className="self-start">
        {pending ? "Adding…" : "Add vehicle"}
      </Button>
    </form>
  );
}
