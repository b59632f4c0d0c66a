"use client";

import { useState, type FormEvent } from "react";
import { MAX_NAME } from "@/common/places/limits";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { PlaceShape } from "@/server/places/schemas";
import { ConfirmDialog } from "./confirm-dialog";
import { FormMessage } from "./form-message";
import type { Sent } from "./send";

// Naming a place just drawn, or renaming one: a modal dialog with one field. The server's field
// errors are shown where they belong: the name's on the field, the shape's (a circle too small, a
// polygon that crosses itself) above the buttons, since the shape is on the map.

export const describeShape = (shape: PlaceShape) =>
  shape.kind === "circle"
    ? `Circle, radius ${shape.radius >= 1000 ? `${(shape.radius / 1000).toFixed(2)} km` : `${Math.round(shape.radius)} m`}`
    : `Polygon, ${shape.polygon.length} points`;

export function PlaceNameDialog({
  title,
  shape,
  initialName = "",
  onSubmit,
  onClose,
}: {
  title: string;
  shape: PlaceShape;
  initialName?: string;
  onSubmit: (name: string) => Promise<Sent<unknown>>;
  onClose: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get("name") ?? "");
    setPending(true);
    const sent = await onSubmit(name);
    setPending(false);
    if (sent.ok) return onClose();
    setNameError(sent.fields.name);
    const shapeError = Object.entries(sent.fields).find(([field]) => field.startsWith("shape"))?.[1];
    setError(shapeError ?? (sent.fields.name ? null : sent.message));
  }

  return (
    <ConfirmDialog open title={title} onClose={onClose}>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-700" data-testid="place-shape">
          {describeShape(shape)}
        </p>
        <Field
          name="name"
          label="Name"
          defaultValue={initialName}
          maxLength={MAX_NAME}
          autoComplete="off"
          autoFocus
          hint="Home, Work, or any name you like. Trips that start or end here show it."
          error={nameError}
        />
        <FormMessage error={error} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : "Save place"}
          </Button>
        </div>
      </form>
    </ConfirmDialog>
  );
}
