import type { SimulatorOverview } from "@/server/surfaces/console/simulator";
import type { SimulationOut } from "@/server/simulator/schemas";
import { DataTable } from "../data-table";
import { isoFromWire, LocalTime } from "../local-time";
import { percent } from "./controls";

type Run = SimulatorOverview["runs"][number];
type Props = {
  runs: Run[];
  live: SimulationOut | undefined;
  pending: boolean;
  vehicleTitle: (vehicleId: number) => string;
  onWatch: (run: Run) => void;
  onStop: (run: { id: number; vehicleId: number }) => void;
};

// The app's recent runs, each with Watch and (while it runs) Stop.
export function RunsTable({ runs, live, pending, vehicleTitle, onWatch, onStop }: Props) {
  return (
    <section aria-labelledby="sim-runs" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="sim-runs" className="text-lg font-semibold">
        Recent runs
      </h2>
      {runs.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">No runs yet.</p>
      ) : (
        <DataTable
          className="relative mt-3"
          label="Recent runs, scrollable"
          caption="Recent simulation runs of this app's vehicles"
          // The watched run's row follows the poll; the others are as the page loaded them.
          rows={runs.map((listed) => (live && live.id === listed.id ? live : listed))}
          rowKey={(r) => r.id}
          rowAttributes={(r) => ({ "data-testid": `run-${r.id}` })}
          columns={[
            { key: "run", header: "Run", className: "font-mono", cell: (r) => r.id },
            { key: "vehicle", header: "Vehicle", cell: (r) => vehicleTitle(r.vehicleId) },
            {
              key: "mode",
              header: "Mode",
              cell: (r) => (r.mode === "realtime" ? `real time ${r.speedUp}×` : "backfill"),
            },
            { key: "status", header: "Status", cell: (r) => r.status },
            { key: "progress", header: "Progress", cell: (r) => percent(r.progress) },
            {
              key: "started",
              header: "Started",
              cell: (r) => <LocalTime iso={isoFromWire(r.createdAt)} wire={r.createdAt} />,
            },
            {
              key: "actions",
              header: <span className="sr-only">Actions</span>,
              cell: (r) => (
                <div className="flex gap-2">
                  <button type="button" className="min-h-11 text-blue-700 underline" onClick={() => onWatch(r)}>
                    Watch
                  </button>
                  {r.status === "running" ? (
                    <button
                      type="button"
                      disabled={pending}
                      className="min-h-11 text-red-800 underline"
                      onClick={() => onStop(r)}
                    >
                      Stop
                    </button>
                  ) : null}
                </div>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
