import { useState } from "react";
import { FieldFrame } from "@/components/ui/field";
import { aria, control } from "./controls";

type Props = { shown: boolean; error?: string; pending: boolean; onSave: (name: string) => Promise<boolean> };

// Shown while clicked start and end are both placed: keeps them as a named route of the app. The
// name typed survives while the section is hidden (a new start and end), hence `shown`.
export function SaveRoute({ shown, error, pending, onSave }: Props) {
  const [routeName, setRouteName] = useState("");

  async function save() {
    if (await onSave(routeName)) setRouteName("");
  }

  if (!shown) return null;
  return (
    <section aria-labelledby="sim-save" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="sim-save" className="text-lg font-semibold">
        Save this start and end as a route
      </h2>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <FieldFrame id="sim-route-name" label="Route name" error={error}>
          <input
            {...aria("sim-route-name", error)}
            className={control(error)}
            value={routeName}
            onChange={(e) => setRouteName(e.target.value)}
            maxLength={100}
          />
        </FieldFrame>
        <button
          type="button"
          disabled={pending}
          onClick={save}
          className="min-h-11 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold hover:bg-slate-50"
        >
          Save route
        </button>
      </div>
    </section>
  );
}
