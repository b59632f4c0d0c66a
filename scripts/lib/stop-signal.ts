import { setProcessPhase } from "@/server/platform/fleet/process-state";
import { logger } from "@/server/platform/log";

/** SIGTERM or SIGINT: mark the process draining, run `stop`, exit 0 (1 if stopping failed). */
export function onStopSignal(stop: () => Promise<void>) {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    setProcessPhase("draining");
    logger.info({ signal }, `${signal}: draining`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "stopping failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => handler("SIGINT"));
  process.on("SIGTERM", () => handler("SIGTERM"));
}
