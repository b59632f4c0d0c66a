import path from "node:path";
import { z } from "zod";

// The database's own settings, read here so that db/ needs nothing from the app above it.
// server/platform/env.ts validates the whole configuration with a schema that extends this one, so a bad
// DATABASE_URL is still reported at start-up with every other problem, and .env.example documents
// both variables in one place.

const blankAsUnset = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());

export const databaseEnvSchema = z.object({
  DATABASE_URL: z.string().optional().transform(blankAsUnset).pipe(z.string().url().optional()),
  DATA_DIR: z.string().default(".data"),
  // A PostgreSQL streaming replica of DATABASE_URL for heavy reads (db/replica.ts); unset: every
  // read goes to DATABASE_URL.
  DATABASE_REPLICA_URL: z.string().optional().transform(blankAsUnset).pipe(z.string().url().optional()),
  // How far the replica may fall behind and still serve reads; further behind, reads go to the primary.
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0.1).max(3600).default(5),
});

export type DatabaseConfig = {
  /** PostgreSQL to connect to; unset: the embedded PGlite announced in dataDir. */
  url: string | undefined;
  dataDir: string;
  /** A streaming replica of `url` for heavy reads; undefined: none. */
  replicaUrl: string | undefined;
  replicaMaxLagSeconds: number;
};

let cached: DatabaseConfig | undefined;

export function databaseConfig(): DatabaseConfig {
  if (cached) return cached;
  const parsed = databaseEnvSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid database configuration (see .env.example):\n${lines}`);
  }
  cached = {
    url: parsed.data.DATABASE_URL,
    dataDir: path.resolve(parsed.data.DATA_DIR),
    // A replica of the embedded database does not exist: without DATABASE_URL it is ignored.
    replicaUrl: parsed.data.DATABASE_URL ? parsed.data.DATABASE_REPLICA_URL : undefined,
    replicaMaxLagSeconds: parsed.data.REPLICA_MAX_LAG_SECONDS,
  };
  return cached;
}
