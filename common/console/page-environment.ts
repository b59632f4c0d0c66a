import type { Environment } from "@/db/schema";

// The environment a console data page shows, from its ?env: production when asked for, the sandbox
// otherwise. Read by the pages' loaders and by the app's tabs in the browser, so both agree.
export const pageEnvironment = (raw: unknown): Environment => (raw === "production" ? "production" : "sandbox");
