// Where this process is in its life, for the readiness probe (app/api/health/ready) and the
// metrics: "starting" until the HTTP front (scripts/lib/serve-http.ts) listens, "serving", then
// "draining" from SIGTERM on.
// Kept on globalThis: the server entry point and Next.js's separately bundled route modules are
// different module instances in one process, and must see one state.

export type ProcessPhase = "starting" | "serving" | "draining";

const key = Symbol.for("wayline.process-phase");
type WithPhase = typeof globalThis & { [key]?: ProcessPhase };

export function processPhase(): ProcessPhase {
  return (globalThis as WithPhase)[key] ?? "starting";
}

export function setProcessPhase(phase: ProcessPhase): void {
  (globalThis as WithPhase)[key] = phase;
}
