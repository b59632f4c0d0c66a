import type { LoggerInstance } from "next-auth";
import { logger } from "@/server/platform/log";

/**
 * next-auth's logger (driver site and partner console) on ours. Its errors come as an Error or as
 * `{ error, …details }`: the Error goes under `err` (with its stack), the details beside it. Its
 * warnings (debug mode on, experimental APIs) tell an operator nothing: debug level.
 */
export function nextAuthLogger(name: string): Partial<LoggerInstance> {
  const log = logger.child({ component: name });
  return {
    error: (code, metadata) => {
      if (metadata instanceof Error) return log.error({ err: metadata, code }, `${name} ${code}`);
      const { error, ...details } = metadata ?? {};
      log.error({ err: error, code, ...details }, `${name} ${code}`);
    },
    warn: (code) => log.debug({ code }, `${name} warning ${code}`),
    debug: (code, metadata) => log.trace({ code, metadata }, `${name} ${code}`),
  };
}
