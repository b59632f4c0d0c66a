import { compileScripts } from "../scripts/lib/compile.mjs";
import { buildIfNeeded } from "../scripts/lib/build";
import { root, startApp } from "../test/helpers/processes";
import { launchDeliveryService } from "./support/delivery-service";

// Starts the real services for the browser tests, side by side, each stopped by its pid afterwards:
// - the main one, with demo data and no delivery worker: on DATABASE_URL when given, else on the
//   embedded database in a fresh data dir. Specs that need apps of their own make them with the
//   operator CLI against the same data dir, which the workers find in E2E_DATA_DIR (they inherit
//   the runner's environment);
// - the delivery one (WORKER=on, a database of its own) for the specs that follow webhooks to a
//   receiver: E2E_DELIVERY_URL (e2e/support/delivery-service.ts).
export default async function globalSetup() {
  // The processes started here and by the specs run the compiled scripts, as the npm scripts do
  // (scripts/lib/compile.mjs), made current here once, before any of them starts.
  await compileScripts();
  // The production build too, once: the services below start side by side, and each would
  // otherwise rebuild a stale one at the same time (Next.js refuses a second build at once).
  await buildIfNeeded(root);
  const launched = await Promise.allSettled([
    startApp({
      name: "e2e",
      port: Number(process.env.E2E_PORT),
      databaseUrl: process.env.DATABASE_URL || undefined,
      seedDemo: true,
      // No test may reach the internet: map tiles point at a closed loopback port (the map must work without them).
      extraEnv: { MAP_TILE_URL: "http://127.0.0.1:9/tiles/{z}/{x}/{y}.png" },
    }),
    launchDeliveryService(),
  ]);
  const [main, other] = launched;
  if (main.status === "rejected" || other.status === "rejected") {
    // The one that started is stopped, so a failed setup leaves no process behind.
    await Promise.all(launched.map((l) => (l.status === "fulfilled" ? l.value.stop() : undefined)));
    throw main.status === "rejected" ? main.reason : (other as PromiseRejectedResult).reason;
  }
  const [service, delivery] = [main.value, other.value];
  process.env.E2E_DATA_DIR = service.dataDir;
  process.env.E2E_DELIVERY_URL = delivery.baseUrl;
  process.env.E2E_DELIVERY_DATA_DIR = delivery.dataDir;
  // What `npm start` printed for the demo driver (printed once the worker runs, just after health).
  const deadline = Date.now() + 30_000;
  while (!/^Driver site: sign in at .*$/m.test(service.output()) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  process.env.E2E_DEMO_SIGN_IN = /^Driver site: sign in at .*$/m.exec(service.output())?.[0] ?? "";
  return async () => {
    await Promise.all([service.stop(), delivery.stop()]);
  };
}
