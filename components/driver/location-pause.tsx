"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormMessage } from "./form-message";
import { sendJson } from "./send";

// The location pause of one vehicle (docs/driver-site.md#pause-location): one click to pause,
// one to resume. While paused, no position is stored and apps see locationPaused: true.
export function LocationPause({ vehicleId, paused }: { vehicleId: number; paused: boolean }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function toggle() {
    setPending(true);
    setError(null);
    const sent = await sendJson("POST", `/me/vehicles/${vehicleId}/location-pause`, { paused: !paused });
    setPending(false);
    if (sent.ok) router.refresh();
    else setError(sent.message);
  }

  return (
    <div className="mt-3 flex flex-col gap-2">
      <p className="text-sm text-slate-700" data-field="Location pause">
        {paused
          ? "Location is paused: positions are not stored, and apps see no new position."
          : "Location is shared: positions are stored and apps with access see them."}
      </p>
      <div>
        <Button
          type="button"
          variant="secondary"
          role="switch"
          aria-checked={paused}
          disabled={pending}
          onClick={toggle}
        >
          {paused ? "Resume location" : "Pause location"}
        </Button>
      </div>
      <FormMessage error={error} />
    </div>
  );
}
