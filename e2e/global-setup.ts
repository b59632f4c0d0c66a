import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serviceEnv, startService, stopProcess, waitForHealth } from "../test/helpers/processes";

// Starts the real service for the browser tests, with demo data: on DATABASE_URL when given,
// else on the embedded database in a fresh data dir. Stopped by its pid afterwards.
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-e2e-"));
  const service = startService(serviceEnv({ port, dataDir, databaseUrl: process.env.DATABASE_URL || undefined, seedDemo: true }));
  try {
    await waitForHealth(`http://127.0.0.1:${port}`, service.child, service.output);
  } catch (error) {
    await stopProcess(service.child);
    throw error;
  }
  return async () => {
    await stopProcess(service.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
