"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog, destructiveButton } from "./confirm-dialog";
import { FormMessage } from "./form-message";
import { sendJson } from "./send";

// Deleting a vehicle is permanent (docs/api.md#accounts-and-vehicles): the dialog says what goes with it.
export function DeleteVehicle({
  vehicleId,
  title,
  tripCount,
}: {
  vehicleId: number;
  title: string;
  tripCount: number;
}) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setPending(true);
    const sent = await sendJson("DELETE", `/me/vehicles/${vehicleId}`);
    if (sent.ok) {
      router.push(`/map?deleted=${encodeURIComponent(title)}`);
      return;
    }
    setPending(false);
    setError(sent.message);
  }

  return (
    <>
      <Button type="button" variant="danger" onClick={() => setOpen(true)}>
        Delete vehicle…
      </Button>
      <ConfirmDialog open={open} title={`Delete ${title}?`} onClose={() => setOpen(false)}>
        <p className="text-slate-700">
          This permanently deletes the vehicle and all its data:{" "}
          {tripCount === 1 ? "its trip" : `all ${tripCount} trips`}, every position and reading its device sent, and the
          apps&apos; event subscriptions for it. It cannot be undone. The device is detached and can be added to another
          vehicle.
        </p>
        <FormMessage error={error} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button type="button" variant="secondary" onClick={() => setOpen(false)} autoFocus>
            Keep vehicle
          </Button>
          <button type="button" onClick={confirm} disabled={pending} className={destructiveButton}>
            {pending ? "Deleting…" : "Delete permanently"}
          </button>
        </div>
      </ConfirmDialog>
    </>
  );
}
