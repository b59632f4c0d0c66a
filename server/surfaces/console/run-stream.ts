import type { LiveFeed, LiveOutput } from "@/server/platform/wakeups/live-feed";
import { childLogger } from "@/server/platform/log";
import { coalesced } from "@/server/platform/wakeups/coalesced";
import { onPositionsChanged } from "@/server/platform/wakeups/positions";
import { onSessionEnd } from "@/server/platform/wakeups/session-ends";
import type { PartnerSession } from "./session";
import { watchedRun } from "./simulator";

const log = childLogger({ component: "run-stream" });

/**
 * The run's progress is saved by the simulator's tick just after the data sets it posted (one
 * statement later), so a wake-up by position may read the progress of the tick before; while the
 * run runs it is read again this often, which also catches its end (no vehicle moves then).
 */
const RUNNING_READ_MS = 3000;

// The simulator page's watched run (GET /console/apps/{appId}/simulator/runs/{runId}/stream): an
// `event: run` with the same body the run's JSON route answers (the route's geometry in the first
// event only), then again whenever the run's vehicle's account has a vehicle move, and every few
// seconds while the run runs. Ownership is checked on opening (a foreign app or run is a 404 before
// the stream starts); the stream ends with the partner's sign-out, and after the run has ended.
export async function openRunStream(
  partner: PartnerSession,
  appId: number,
  runId: number,
  out: LiveOutput,
): Promise<LiveFeed> {
  const first = await watchedRun(partner.partnerUserId, appId, runId);
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = coalesced(async () => {
    if (stopped) return;
    try {
      const { accountId: _a, geometry: _g, ...now } = await watchedRun(partner.partnerUserId, appId, runId);
      if (stopped) return;
      out.send("run", now);
      if (now.simulation.status !== "running") out.close();
    } catch (error) {
      log.warn({ err: error }, "reading a watched run failed");
      out.close();
    }
  });
  const offPositions = await onPositionsChanged(first.accountId, () => void read());
  let offSession: () => void = () => {};
  try {
    offSession = await onSessionEnd(partner.sid, () => out.close());
  } catch (error) {
    offPositions();
    throw error;
  }
  const { accountId: _a, ...shown } = first;
  out.send("run", shown);
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    offPositions();
    offSession();
  };
  if (first.simulation.status !== "running") {
    out.close();
  } else {
    const tick = () => {
      timer = setTimeout(() => void read().then(() => !stopped && tick()), RUNNING_READ_MS);
    };
    tick();
  }
  return { heartbeat: () => void read(), stop };
}
