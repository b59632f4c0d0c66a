import { closeDb, db } from "@/db/client";
import { closeReplica } from "@/db/replica";
import { openEmbeddedDatabase } from "@/db/embedded/embedded-database";
import { runMigrations } from "@/db/migrate";
import { env } from "@/server/platform/env";
import { logger } from "@/server/platform/log";

// For processes that start on their own (the service, CLI scripts): make sure a database is
// reachable (starting the embedded one when DATABASE_URL is unset and no other process serves
// it yet), apply the migrations (under a lock: app and worker may start at once), and hand back how to
// let go of it all.
export async function prepareDatabase(): Promise<{ embeddedUrl: string | null; stop(): Promise<void> }> {
  const config = env();
  // A connection the embedded server drops is a client's ECONNRESET with no database log: say why here.
  const embedded = config.embedded
    ? await openEmbeddedDatabase(config.dataDir, ({ reason, error }) =>
        logger.warn({ err: error, reason }, "embedded database closed a client connection"),
      )
    : null;
  await runMigrations(db());
  return {
    embeddedUrl: embedded?.url ?? null,
    async stop() {
      await Promise.all([closeDb(), closeReplica()]);
      await embedded?.stop();
    },
  };
}
