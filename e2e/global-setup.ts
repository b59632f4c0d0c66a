import { launchService } from "../test/helpers/processes";

// Starts the real service for the browser tests, with demo data: on DATABASE_URL when given,
// else on the embedded database in a fresh data dir. Stopped by its pid afterwards. Specs that
// need apps of their own make them with the operator CLI against the same data dir, which the
// workers find in E2E_DATA_DIR (they inherit the runner's environment).
export default async function globalSetup() {
  const service = await launchService({ name: "e2e", port: Number(process.env.E2E_PORT), databaseUrl: process.env.DATABASE_URL || undefined, seedDemo: true,
    // No test may reach the internet: map tiles point at a closed loopback port (the map must work without them).
    extraEnv: { MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png" } });
  process.env.E2E_DATA_DIR = service.dataDir;
  return service.stop;
}
