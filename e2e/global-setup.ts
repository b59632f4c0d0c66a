import { launchService } from "../test/helpers/processes";

// Starts the real service for the browser tests, with demo data: on DATABASE_URL when given,
// else on the embedded database in a fresh data dir. Stopped by its pid afterwards.
export default async function globalSetup() {
  const service = await launchService({ name: "e2e", port: Number(process.env.E2E_PORT), databaseUrl: process.env.DATABASE_URL || undefined, seedDemo: true });
  return service.stop;
}
