import { startDeliveryQueue } from "@/server/delivery/queue";
import { logInfo } from "@/server/log";

// The background worker: notification delivery (server/delivery). Runs inside `npm start` unless
// WORKER=off, or alone with `npm run worker`; several on one database share the work.
export async function startWorker(): Promise<{ stop(): Promise<void> }> {
  const delivery = await startDeliveryQueue();
  logInfo("delivery worker started", { workerId: delivery.workerId });
  return {
    async stop() {
      await delivery.stop();
    },
  };
}
