import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import type { LatLon } from "@/components/map/simulator-map";
import type { SimulationOut } from "@/server/simulator/schemas";

/** How often a watched run is read again. */
const POLL_MS = 2000;

type Watched = { simulation: SimulationOut; position: LatLon | null; geometry: LatLon[] };

// The run being watched, read again every 2 s (GET …/simulator/runs/{id}) while it runs; when it
// ends the page is refreshed once, since the runs list below has changed.
export function useWatchedRun(appId: number, initialId: number | null) {
  const router = useRouter();
  const [watchedId, setWatchedId] = useState<number | null>(initialId);
  const [watched, setWatched] = useState<Watched | null>(null);
  const [pollProblem, setPollProblem] = useState<string | null>(null);

  useEffect(() => {
    if (watchedId === null) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const res = await fetch(`/console/apps/${appId}/simulator/runs/${watchedId}`, {
          cache: "no-store",
          headers: { Accept: "application/json" },
        });
        if (!res.ok) throw new Error(`the console answered ${res.status}`);
        const body = (await res.json()) as Watched;
        if (stopped) return;
        setWatched(body);
        setPollProblem(null);
        if (body.simulation.status !== "running") {
          // Finished or stopped: the list below changes, and there is nothing more to watch.
          router.refresh();
          return;
        }
      } catch (error) {
        if (!stopped) setPollProblem(error instanceof Error ? error.message : "no answer");
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [appId, watchedId, router]);

  /** Watch another run: forget the last one's reading until the first poll answers. */
  function watch(id: number) {
    setWatched(null);
    setWatchedId(id);
  }

  return { watched, pollProblem, watch };
}
