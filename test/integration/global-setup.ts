import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureEmbeddedTemplate } from "@/test/helpers/embedded-template";
import { compileScripts } from "@/scripts/lib/compile.mjs";
import { startApp, runScript } from "@/test/helpers/processes";

/** Registered for the "web" app, besides https://partner.example/callback (which every app has). */
export const WEB_REDIRECT_URIS = [
  "https://partner.example/cb?tenant=acme",
  "http://127.0.0.1:8765/callback",
  "carlocator://oauth/callback",
  "http://sandbox-only.example/callback",
];
export const NATIVE_REDIRECT_URIS = ["carlocator://oauth/callback", "http://127.0.0.1/callback"];

export type TestApp = {
  name: string;
  sandbox: { clientId: string; clientSecret: string };
  production: { clientId: string; clientSecret: string };
  signingSecret: string;
};

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    embedded: boolean;
    dataDir: string;
    apps: { main: TestApp; other: TestApp; provider: TestApp; web: TestApp; native: TestApp };
  }
}

// Starts the real service once for the integration suite: on the PostgreSQL named by
// DATABASE_URL (CI gives a fresh database), else on the embedded default in a fresh data dir.
// Partner apps are made with the real CLI, as an operator would. The service runs as behind a
// reverse proxy (TRUST_PROXY=1): each test's "browser" then signs in from an address of its own,
// so the per-address slowdown of failed sign-ins that one test provokes never hits another.
//
// Vitest runs a project's global setup for each project of a run: when one run holds several
// integration projects (the process files and those that need the machine alone), they share the
// one service, launched by the first and stopped after the last (kept in the Vitest process).
type Shared = {
  provided: {
    baseUrl: string;
    databaseUrl: string;
    embedded: boolean;
    dataDir: string;
    apps: { main: TestApp; other: TestApp; provider: TestApp; web: TestApp; native: TestApp };
  };
  users: number;
  stop(): Promise<void>;
};
const SHARED = Symbol.for("wayline.integration.sharedService");
const holder = globalThis as unknown as Record<symbol, Promise<Shared> | undefined>;

export default async function setup(project: TestProject) {
  holder[SHARED] ??= startShared();
  const shared = await holder[SHARED];
  shared.users += 1;
  for (const [key, value] of Object.entries(shared.provided))
    project.provide(key as keyof Shared["provided"], value as never);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    holder[SHARED] = undefined;
    await shared.stop();
  };
}

async function startShared(): Promise<Shared> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // The processes the tests start run the compiled scripts, as the npm scripts do (scripts/lib/compile.mjs),
  // made current here once, before any of them starts.
  await compileScripts();
  // Every run starts embedded services (on PostgreSQL too: the demo's, a fleet's other half).
  await ensureEmbeddedTemplate();
  const service = await startApp({ name: "it", databaseUrl, extraEnv: { TRUST_PROXY: "1" } });
  try {
    const create = async (name: string, extra: string[] = []) =>
      JSON.parse(
        (
          await runScript(
            "app-create.ts",
            ["--name", name, "--redirect-uri", "https://partner.example/callback", "--json", ...extra],
            service.env,
          )
        ).stdout,
      ) as TestApp;
    const uris = (list: string[]) => list.flatMap((uri) => ["--redirect-uri", uri]);
    // Made side by side: five CLI runs, each mostly start-up.
    const [main, other, provider, web, native] = await Promise.all([
      create("Integration main app"),
      create("Integration other app"),
      create("Integration data provider", ["--data-provider"]),
      // The authorization page's apps: a web app with every kind of redirect URI, and a public
      // (native) one that must use PKCE.
      create("Fleet Web", ["--owner", "Fleet Co Inc.", ...uris(WEB_REDIRECT_URIS)]),
      create("Car Locator", ["--owner", "Locator Labs", "--public", ...uris(NATIVE_REDIRECT_URIS)]),
    ]);
    const apps = { main: main!, other: other!, provider: provider!, web: web!, native: native! };
    const dbUrl =
      databaseUrl ??
      (JSON.parse(fs.readFileSync(path.join(service.dataDir, "embedded-db.json"), "utf8")) as { url: string }).url;
    return {
      provided: {
        baseUrl: service.baseUrl,
        databaseUrl: dbUrl,
        embedded: !databaseUrl,
        dataDir: service.dataDir,
        apps,
      },
      users: 0,
      stop: service.stop,
    };
  } catch (error) {
    await service.stop();
    throw error;
  }
}
