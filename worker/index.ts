import { startDeliveryQueue } from "@/server/delivery/queue";
import { logger } from "@/server/platform/log";
import { env } from "@/server/platform/env";
import { startRetention } from "./retention";
import { startSilenceWatch } from "./silence";
import { startSimulator } from "./simulator";

// The background worker: notification delivery (server/delivery) and the sandbox simulator's
// real-time loop (server/simulator). Runs inside `npm start`, or alone with `npm run worker`;
// several on one database share the work (delivery rows and simulation runs are claimed with
// FOR UPDATE SKIP LOCKED and leases). Each part can be switched off (WORKER=off, SIMULATOR=0).
//
// stop() lets the work in hand finish; given `withinMs` (a drain's bound), it waits no longer
// than that, then gives back the deliveries still leased so that another worker sends them now.
export async function startWorker(parts: {
  delivery: boolean;
  simulator: boolean;
}): Promise<{ stop(options?: { withinMs?: number }): Promise<void> }> {
  const delivery = parts.delivery ? await startDeliveryQueue() : null;
  if (delivery) logger.info({ workerId: delivery.workerId }, "delivery worker started");
  const simulator = parts.simulator ? startSimulator() : null;
  // The maintenance job goes with delivery: every process that delivers runs it (they skip each
  // other's rows, and make each partition once): the time partitions ahead, always; data points and
  // delivery attempts past their retention when DATA_POINT_RETENTION_DAYS, DELIVERY_ATTEMPT_RETENTION_DAYS
  // are set; the access log's old hours always (ACCESS_LOG_RETENTION_DAYS, default 400).
  const retention = parts.delivery
    ? startRetention({
        dataPointDays: env().DATA_POINT_RETENTION_DAYS,
        deliveryAttemptDays: env().DELIVERY_ATTEMPT_RETENTION_DAYS,
        accessLogDays: env().ACCESS_LOG_RETENTION_DAYS,
      })
    : null;
  // Silent devices go with delivery too: their notifications are deliveries to make.
  const silence = parts.delivery ? startSilenceWatch({ silentMinutes: env().DEVICE_SILENT_MINUTES }) : null;
  return {
    async stop({ withinMs }: { withinMs?: number } = {}) {
      const stopping = Promise.all([retention?.stop(), silence?.stop(), simulator?.stop(), delivery?.stop()]).then(
        () => true,
      );
      if (withinMs === undefined) {
        await stopping;
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), withinMs)));
      const inTime = await Promise.race([stopping, late]);
      clearTimeout(timer);
      if (!inTime) {
        logger.info("drain: the worker's jobs outlasted the drain; giving back their deliveries");
        await delivery?.abandon();
      }
    },
  };
}
