import { reportSilentDevices } from "@/server/devices/silence";
import { logger } from "@/server/platform/log";

// The silent-device watch in the background worker (server/devices/silence.ts): an indexed claim of the
// devices whose silent_at has passed, in batches, every quarter of DEVICE_SILENT_MINUTES (at most every
// 15 s), so a silence is reported at most that late. Between two ticks it costs one index probe.

const BATCH = 500;
const LONGEST_TICK_MS = 15_000;

export function startSilenceWatch({ silentMinutes }: { silentMinutes: number }): { stop(): Promise<void> } {
  const tickMs = Math.max(100, Math.min(LONGEST_TICK_MS, (silentMinutes * 60_000) / 4));
  let stopping = false;
  let running: Promise<unknown> = Promise.resolve();
  const drain = async () => {
    // A full batch means more may be due: claim again at once.
    while (!stopping && (await reportSilentDevices({ limit: BATCH })).length === BATCH);
  };
  let busy = false;
  // A check still running when the next is due: the next is skipped rather than run beside it.
  const tick = () => {
    if (busy) return;
    busy = true;
    running = drain()
      .catch((error: unknown) => {
        if (!stopping) logger.error({ err: error }, "reporting silent devices failed");
      })
      .finally(() => (busy = false));
  };
  const timer = setInterval(tick, tickMs);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
