import { LiveStatus } from "@/components/live/live-status";
import type { LiveMode } from "@/components/live/use-live";
import type { SimulationOut } from "@/server/simulator/schemas";
import { percent } from "./controls";
import { WATCH_POLL_MS } from "./use-watched-run";

type Props = {
  live: SimulationOut;
  title: string;
  pending: boolean;
  mode: LiveMode;
  problem: string | null;
  onStop: (run: SimulationOut) => void;
};

// The watched run as its stream (or, while that is down, the last poll) last told it: its status,
// progress and a Stop button while it runs, and whether the view is live.
export function WatchedRun({ live, title, pending, mode, problem, onStop }: Props) {
  return (
    <section
      aria-labelledby="sim-watch"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="watched-run"
      data-status={live.status}
      data-progress={live.progress}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="sim-watch" className="text-lg font-semibold">
          Run {live.id} · {title}
        </h2>
        {live.status === "running" ? (
          <button
            type="button"
            disabled={pending}
            onClick={() => onStop(live)}
            className="min-h-11 rounded-lg border border-red-300 bg-white px-4 text-sm font-semibold text-red-800 hover:bg-red-50"
          >
            Stop run
          </button>
        ) : null}
      </div>
      <p className="mt-2 text-sm text-slate-800" role="status" aria-live="polite">
        {live.status === "running" ? "Running" : live.status === "finished" ? "Finished" : "Stopped"} · progress{" "}
        {percent(live.progress)} · {live.dataSetCount} data sets
        {live.mode === "realtime" ? ` · ${live.speedUp}× real time` : " · backfill"} · {live.routeLengthMiles} mi
        {live.stopReason ? ` · ${live.stopReason}` : ""}
      </p>
      <progress className="mt-2 h-3 w-full" max={1} value={live.progress} aria-label={`Progress of run ${live.id}`} />
      {live.status === "running" ? (
        <div className="mt-2">
          <LiveStatus mode={mode} pollMs={WATCH_POLL_MS} problem={problem} />
        </div>
      ) : null}
    </section>
  );
}
