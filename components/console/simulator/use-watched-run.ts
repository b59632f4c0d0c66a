import { useRouter } from "next/navigation";
import { useState } from "react";
import { useLive } from "@/components/live/use-live";
import type { LatLon } from "@/components/map/simulator-map";
import type { SimulationOut } from "@/server/simulator/schemas";

/** While the run's stream is down, how often the run is read again. */
export const WATCH_POLL_MS = 2000;

type Watched = { simulation: SimulationOut; position: LatLon | null; geometry: LatLon[] };
/** The stream sends the route's geometry in its first event only. */
type Reading = Omit<Watched, "geometry"> & { geometry?: LatLon[] };

// The run being watched, pushed by its stream (GET …/simulator/runs/{id}/stream) as its vehicle
// moves, or read every 2 s (GET …/simulator/runs/{id}) while the stream is down; when it ends the
// page is refreshed once, since the runs list below has changed.
export function useWatchedRun(appId: number, initialId: number | null) {
  const router = useRouter();
  const [watchedId, setWatchedId] = useState<number | null>(initialId);
  const [watched, setWatched] = useState<Watched | null>(null);
  const base = watchedId === null ? null : `/console/apps/${appId}/simulator/runs/${watchedId}`;

  const { mode, problem } = useLive<Reading>({
    streamUrl: base && `${base}/stream`,
    event: "run",
    pollUrl: base ?? "",
    pollMs: WATCH_POLL_MS,
    onData: (reading) =>
      setWatched((before) => ({
        ...reading,
        geometry: reading.geometry ?? (before?.simulation.id === reading.simulation.id ? before.geometry : []),
      })),
    // Finished or stopped: the list below changes, and there is nothing more to watch.
    finished: (reading) => {
      const over = reading.simulation.status !== "running";
      if (over) router.refresh();
      return over;
    },
    onSignedOut: () => router.refresh(),
  });

  /** Watch another run: forget the last one's reading until the first answer. */
  function watch(id: number) {
    setWatched(null);
    setWatchedId(id);
  }

  return { watched, mode, problem, watch };
}
