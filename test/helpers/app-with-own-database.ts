import { inject } from "vitest";
import { type Credentials } from "./api";
import { freshDatabase } from "./fresh-database";
import { startHttpsReceiverFor, type HttpsReceiver } from "./https-receiver";
import { runScript, startApp, type RunningApp } from "./processes";

// An app of a test file's own on a database of its own, for tests whose notifications and
// deliveries must not mix with any other test's, or that restart or reconfigure the app.

/** A partner app as the operator CLI prints it (`app:create --json`). */
type PartnerApp = { sandbox: Credentials; signingSecret: string };

export type AppWithOwnDatabase = {
  app: RunningApp;
  receiver: HttpsReceiver;
  partnerApp: PartnerApp;
  stop(): Promise<void>;
};

/**
 * Creates a database (a fresh one on the suite's PostgreSQL, else the app's own embedded one in its
 * data dir), starts the app on it with `extraEnv` (startApp: it migrates the database at start), an
 * HTTPS receiver that trusts the app's test CA, and makes one partner app with the operator CLI.
 * stop() stops the receiver and the app, and drops the database.
 */
export async function startAppWithOwnDatabase(
  name: string,
  extraEnv: Record<string, string>,
  nodeFlags: string[] = [],
): Promise<AppWithOwnDatabase> {
  const database = inject("embedded") ? null : await freshDatabase(inject("databaseUrl"), name.replace(/-/g, "_"));
  const app = await startApp({ name, databaseUrl: database?.url, extraEnv, nodeFlags });
  const receiver = await startHttpsReceiverFor(app);
  const partnerApp = JSON.parse(
    (
      await runScript(
        "app-create.ts",
        ["--name", `Own app ${name}`, "--redirect-uri", "https://partner.example/callback", "--json"],
        app.env,
      )
    ).stdout,
  ) as PartnerApp;
  return {
    app,
    receiver,
    partnerApp,
    async stop() {
      await receiver.close();
      await app.stop();
      await database?.drop();
    },
  };
}
