import { liveLabel, type LiveMode } from "./use-live";

// The line that says how a live view is kept current: "Live" (pushed over the stream) or
// "Updating every N s" (polling while the stream is down), and what went wrong if a poll failed.
export function LiveStatus({ mode, pollMs, problem }: { mode: LiveMode; pollMs: number; problem: string | null }) {
  return (
    <p className="text-xs text-slate-700" role="status" aria-live="polite" data-testid="live-status" data-mode={mode}>
      <span
        className={`mr-1 inline-block h-2 w-2 rounded-full ${mode === "live" ? "bg-emerald-600" : "bg-amber-500"}`}
        aria-hidden="true"
      />
      {liveLabel(mode, pollMs)}
      {problem ? <span className="text-red-700"> (last update failed: {problem}; retrying…)</span> : null}
    </p>
  );
}
