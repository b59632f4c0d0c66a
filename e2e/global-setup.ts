import { launchService } from "../test/helpers/processes";

// Starts the real service for the browser tests, with demo data: on DATABASE_URL when given,
// else on the embedded database in a fresh data dir. Stopped by its pid afterwards. Specs that
// need apps of their own make them with the operator CLI against the same data dir, which the
// workers find in E2E_DATA_DIR (they inherit the runner's environment).
export default async function globalSetup() {
  const service = await launchService({
    name: "e2e",
    port: Number(process.env.E2E_PORT),
    databaseUrl: process.env.DATABASE_URL || undefined,
    seedDemo: true,
    // No test may reach the internet: map tiles point at a closed loopback port (the map must work without them).
    extraEnv: { MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png" },
  });
  process.env.E2E_DATA_DIR = service.dataDir;
  // What `npm start` printed for the demo driver (printed once the worker runs, just after health).
  const deadline = Date.now() + 30_000;
  while (!/^Driver site: sign in at .*$/m.test(service.output()) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  process.env.E2E_DEMO_SIGN_IN = /^Driver site: sign in at .*$/m.exec(service.output())?.[0] ?? "";
  return service.stop;
}
