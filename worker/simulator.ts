import { logger } from "@/server/platform/log";
import { metrics } from "@/server/platform/metrics/registry";
import { advanceRun, claimDueRuns, nextDueAt, type Advanced, type Outcome } from "@/server/simulator/runner";
import { saveOutcomes } from "@/server/simulator/save-outcomes";

// The sandbox simulator's real-time loop: one loop per process, not a timer per vehicle. Each
// turn claims due runs in batches (FOR UPDATE SKIP LOCKED plus a lease, so several processes can
// share the runs and a crashed one's runs are picked up again), posts what is due of each through
// the device ingest path, and sleeps until the next run is due, at most 250 ms: a run that another
// process starts meanwhile is claimed within that, with no signal between the processes.
// All state is in simulation_runs, so a restart resumes every run where it was.

export type SimulatorOptions = {
  /** Runs claimed per turn: small, so that a run falling due waits for a short turn only. */
  batch?: number;
  /** Runs driven at once (each is one ingest transaction). */
  concurrency?: number;
  /** Called after each run's data sets are committed (benchmarks measure the lag with it). */
  onAdvanced?: (result: Advanced) => void;
};

const MAX_SLEEP_MS = 250;

export function startSimulator(options: SimulatorOptions = {}): { stop(): Promise<void> } {
  const batch = options.batch ?? 16;
  const concurrency = options.concurrency ?? 8;
  let stopping = false;
  let wake: (() => void) | null = null;
  let failures = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        wake = null;
        resolve();
      };
    });

  async function turn(): Promise<number> {
    const runs = await claimDueRuns(batch);
    if (runs.length > 0) metrics().simulatorTurns.inc(runs.length);
    const outcomes: Outcome[] = [];
    const advanced: Advanced[] = [];
    let next = 0;
    const worker = async () => {
      while (next < runs.length) {
        const run = runs[next++]!;
        const { outcome, ...result } = await advanceRun(run);
        if (outcome) outcomes.push(outcome);
        if (result.posted) advanced.push(result);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(concurrency, runs.length) }, worker));
    } finally {
      // Runs driven before a failure are recorded too (their data sets are committed).
      await saveOutcomes(outcomes);
    }
    for (const result of advanced) options.onAdvanced?.(result);
    return runs.length;
  }

  const done = (async () => {
    logger.info("simulator loop started");
    while (!stopping) {
      try {
        const claimed = await turn();
        failures = 0;
        if (stopping) break;
        if (claimed > 0) continue; // maybe more are due: no sleep
        const due = await nextDueAt();
        const wait = due ? Math.min(MAX_SLEEP_MS, Math.max(10, due.getTime() - Date.now())) : MAX_SLEEP_MS;
        await sleep(wait);
      } catch (error) {
        // The database may be briefly unreachable (restarts, the embedded server starting):
        // back off and carry on rather than end the loop.
        failures++;
        if (failures === 1 || failures % 20 === 0) logger.error({ err: error, failures }, "simulator loop turn failed");
        await sleep(Math.min(5000, 250 * failures));
      }
    }
  })();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await done;
    },
  };
}
