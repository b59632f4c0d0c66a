import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type Logger } from "pino";
import { logLevel } from "@/server/platform/env";

// The one logger of the service, the worker and the scripts: pino, one JSON object a line on
// stderr (stdout is what a command prints for people or programs: the start banner, the demo's
// sign-in and curl lines, `app:create --json`). Each line has `level` (a name), `time` (ISO 8601),
// `msg`, `pid`, `hostname`; an Error goes under `err` (`{ err }`), which pino's serializer writes
// with its type, message and stack (and `cause`). LOG_LEVEL picks the least level written
// (docs/operations.md#logs). Unexpected errors are logged here, never put in a response
// (docs/api.md#errors).
//
// While an HTTP request is handled, every line carries its `requestId` (server/http/request-id.ts):
// the server runs the request inside `withLogContext`, and pino's mixin reads it back. Next.js
// bundles the route handlers with their own copy of this module, beside the copy the start script
// loaded, so the context and the root logger live on globalThis: one of each per process.

type LogContext = { requestId: string };
type Shared = { context: AsyncLocalStorage<LogContext>; root: Logger };

const key = Symbol.for("wayline.log");
const shared: Shared = ((globalThis as { [key]?: Shared })[key] ??= createShared());

function createShared(): Shared {
  const context = new AsyncLocalStorage<LogContext>();
  const root = pino(
    {
      level: logLevel(),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => context.getStore() ?? {},
    },
    // Synchronous writes: a line logged just before the process exits (a fatal start-up error) is
    // not lost, and no worker thread is needed.
    pino.destination({ fd: 2, sync: true }),
  );
  return { context, root };
}

/** The root logger. Give `{ err }` for an Error: `logger.error({ err }, "what failed")`. */
export const logger: Logger = shared.root;

/** A logger whose every line carries `bindings` (e.g. `{ component: "delivery" }`). */
export function childLogger(bindings: Record<string, unknown>): Logger {
  return shared.root.child(bindings);
}

/** Runs `fn` with `context` on every line it (and whatever it awaits) logs. */
export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return shared.context.run(context, fn);
}
