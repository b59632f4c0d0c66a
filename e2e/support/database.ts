import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";

// The e2e service's database, for the few states no HTTP call can make (what the device gateway
// kept of a device: the gateway does not run beside the e2e service). DATABASE_URL when the run has
// one, else the embedded database the service serves on loopback, as its data dir advertises it.

let sql: postgres.Sql | undefined;

export function e2eSql(): postgres.Sql {
  const given = process.env.DATABASE_URL || undefined;
  const url =
    given ??
    (JSON.parse(fs.readFileSync(path.join(process.env.E2E_DATA_DIR!, "embedded-db.json"), "utf8")) as { url: string })
      .url;
  // fetch_types: false, as every pool of ours; no prepared statements on the embedded server's one session.
  sql ??= postgres(url, { max: 1, prepare: Boolean(given), fetch_types: false, onnotice: () => {} });
  return sql;
}
