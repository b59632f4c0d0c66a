import fs from "node:fs";
import path from "node:path";
import type { ProvidedContext } from "vitest";
import type { TestProject } from "vitest/node";
import { ensureEmbeddedTemplate } from "@/test/helpers/embedded-template";
import { compileScripts } from "@/scripts/lib/compile.mjs";
import { freshDatabase } from "@/test/helpers/fresh-database";
import { buildIfNeeded } from "@/scripts/lib/build";
import { root, runScript, startApp, type RunningApp } from "@/test/helpers/processes";

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

/** A shared app as the tests reach it: its origin, its data dir (its test CA, its embedded database) and database. */
export type SharedApp = { baseUrl: string; dataDir: string; databaseUrl: string };

// The pool: shared apps beside the main one, each with one setting of its own, on a database of its
// own, for the files that need only that setting and not an app to themselves (no restart, no
// process killed, no count another file could move). `worker`: the delivery worker on, so a
// notification is delivered as it is made (the main app keeps its notifications PENDING).
const POOL = {
  worker: { WORKER: "on" },
} as const satisfies Record<string, Record<string, string>>;
export type PoolName = keyof typeof POOL;

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    embedded: boolean;
    dataDir: string;
    apps: { main: TestApp; other: TestApp; provider: TestApp; web: TestApp; native: TestApp };
    pool: Record<PoolName, SharedApp>;
  }
}

// Starts the real service once for the integration suite: on the PostgreSQL named by
// DATABASE_URL (CI gives a fresh database), else on the embedded default in a fresh data dir.
// Partner apps are made with the real CLI, as an operator would. The service runs as behind a
// reverse proxy (TRUST_PROXY=1): each test's "browser" then signs in from an address of its own,
// so the per-address slowdown of failed sign-ins that one test provokes never hits another. The
// pool's apps start beside it, on fresh databases of the same server (else embedded ones of their
// own), behind the same proxy setting.
//
// Vitest runs a project's global setup for each project of a run: when one run holds several
// integration projects (the process files and those that need the machine alone), they share the
// one service and its pool, started by the first and stopped after the last (kept in the Vitest
// process).
type Shared = { provided: ProvidedContext; users: number; stop(): Promise<void> };
const SHARED = Symbol.for("wayline.integration.sharedService");
const holder = globalThis as unknown as Record<symbol, Promise<Shared> | undefined>;

export default async function setup(project: TestProject) {
  holder[SHARED] ??= startShared();
  const shared = await holder[SHARED];
  shared.users += 1;
  for (const [key, value] of Object.entries(shared.provided))
    project.provide(key as keyof ProvidedContext, value as never);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    holder[SHARED] = undefined;
    await shared.stop();
  };
}

type Started = { app: RunningApp; shared: SharedApp; stop(): Promise<void> };

/**
 * A shared app, started: on `database` when given, else on an embedded database of its own in its
 * data dir. stop() stops it and drops the database when `database` says how (the pool's fresh ones).
 */
async function startSharedApp(
  name: string,
  extraEnv: Record<string, string>,
  database?: { url: string; drop?: () => Promise<void> },
): Promise<Started> {
  let app: RunningApp;
  try {
    app = await startApp({ name, databaseUrl: database?.url, extraEnv });
  } catch (error) {
    await database?.drop?.();
    throw error;
  }
  const databaseUrl =
    database?.url ??
    (JSON.parse(fs.readFileSync(path.join(app.dataDir, "embedded-db.json"), "utf8")) as { url: string }).url;
  return {
    app,
    shared: { baseUrl: app.baseUrl, dataDir: app.dataDir, databaseUrl },
    async stop() {
      await app.stop();
      await database?.drop?.();
    },
  };
}

async function startShared(): Promise<Shared> {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // The processes the tests start run the compiled scripts, as the npm scripts do (scripts/lib/compile.mjs),
  // made current here once, before any of them starts.
  await compileScripts();
  // The production build too: the services below start side by side, and each would otherwise
  // rebuild a stale one at the same time as the others (Next.js refuses a second build at once).
  await buildIfNeeded(root);
  // Every run starts embedded services (on PostgreSQL too: the demo's, a fleet's other half).
  await ensureEmbeddedTemplate();
  // Side by side: each start mostly waits on its own process. Every one that started is stopped
  // again when another failed.
  const names = Object.keys(POOL) as PoolName[];
  const settled = await Promise.allSettled([
    startSharedApp("it", { TRUST_PROXY: "1" }, databaseUrl ? { url: databaseUrl } : undefined),
    ...names.map(async (name) =>
      startSharedApp(
        `it-${name}`,
        { TRUST_PROXY: "1", ...POOL[name] },
        databaseUrl ? await freshDatabase(databaseUrl, `pool_${name}`) : undefined,
      ),
    ),
  ]);
  const started = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stop = async () => void (await Promise.all(started.map((s) => s.stop())));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const [{ app: service, shared }, ...pool] = started as [Started, ...Started[]];
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
    return {
      provided: {
        baseUrl: shared.baseUrl,
        databaseUrl: shared.databaseUrl,
        embedded: !databaseUrl,
        dataDir: shared.dataDir,
        apps,
        pool: Object.fromEntries(names.map((name, i) => [name, pool[i]!.shared])) as Record<PoolName, SharedApp>,
      },
      users: 0,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
