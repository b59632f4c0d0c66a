import "server-only";
import fs from "node:fs";
import path from "node:path";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { databaseConfig } from "./config";
import * as schema from "./schema";

// One db module for every process. With DATABASE_URL it talks to that PostgreSQL; without it, to
// the embedded PGlite that scripts/start.ts (or a CLI script) serves on loopback and announces in
// DATA_DIR/embedded-db.json (db/embedded/). Application code only ever sees postgres.js.

export type Database = PostgresJsDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Either the database or a transaction: query functions accept both. */
export type Executor = Database | Tx;

export type Connection = { db: Database; sql: postgres.Sql; embedded: boolean };

const globalKey = Symbol.for("wayline.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: Connection };

function embeddedUrlFile(dataDir: string): string {
  return path.join(dataDir, "embedded-db.json");
}

function resolveUrl(): { url: string; embedded: boolean } {
  const config = databaseConfig();
  if (config.url) return { url: config.url, embedded: false };
  const file = embeddedUrlFile(config.dataDir);
  try {
    const { url } = JSON.parse(fs.readFileSync(file, "utf8")) as { url: string };
    return { url, embedded: true };
  } catch {
    throw new Error(
      `DATABASE_URL is not set and no embedded database is running (${file} missing): start the service with npm start.`,
    );
  }
}

/** A pool on `url` with the settings every pool of the service shares (db/replica.ts opens its replica's with it). */
export function connect(url: string, embedded: boolean, max = embedded ? 4 : 10): Connection {
  const sql = postgres(url, {
    max,
    // The embedded server multiplexes clients onto one backend, where named prepared statements
    // would collide; real PostgreSQL keeps them per connection.
    prepare: !embedded,
    onnotice: () => {},
    // JIT off (docs/decisions/0130-no-jit.md): our statements are short, and once a table holds months of
    // data a generic plan's estimated cost passes jit_above_cost, so PostgreSQL compiled the trip
    // read's 97 expressions on every execution (45 ms added to a query that takes 13 ms without, at 3
    // million points, bench:scale) and kept nothing for the next. The embedded database has no JIT.
    connection: embedded ? { application_name: "wayline" } : { application_name: "wayline", jit: "off" },
    // After a lost connection (a database restart: docs/operations.md#a-database-restart) a pool
    // slot waits this long before connecting again. postgres.js's default grows to 20 s with every
    // failed attempt of the pool, so after an outage of a few seconds a slot could sit out 10–20 s
    // more with requests queued behind it; capped at 1 s, every slot is back within about a
    // second of the database, and a refused attempt on loopback costs next to nothing.
    backoff: (retries: number) => Math.min(0.05 * 2 ** retries, 1),
    // A connection that has not finished its start-up after this long (a host that drops the
    // packets) fails its query, answered 503, rather than holding it for the default 30 s.
    connect_timeout: 10,
    // No type lookup at all (docs/decisions/0081-postgres-js-unpatched.md). postgres.js 4 knows
    // PostgreSQL's own types and their arrays; the catalog lookup would add only our one enum
    // (environment), which reads as its text either way. Both ways of looking it up hang: lazily,
    // in the middle of the first statement that names it, the lookup waits on the embedded server
    // behind the connection that owns its one backend; eagerly, when the pool starts, a connection
    // given a statement while the lookup runs stays paused for good (postgres.js 4.2.0: a fresh
    // pool sent 32 statements with an enum parameter at once hung in 24 of 30 rounds).
    fetch_types: false,
  });
  preparing(sql, !embedded);
  const db = drizzle(sql, { schema, casing: "snake_case" });
  passArraysThrough(sql);
  return { sql, embedded, db };
}

// drizzle sets a pass-through serializer for date, time and timestamp types so that it can hand
// them over as the strings it formats itself. For the array types among them (date[],
// timestamptz[], timestamp[], numeric[]) that stops postgres.js 4 from serializing the arrays our
// own statements pass (`${times}::timestamptz[]`), which it now types as the server asks: drop them.
const ARRAY_OIDS = [1182, 1185, 1115, 1231];
function passArraysThrough(sql: postgres.Sql): void {
  const serializers = sql.options.serializers as Record<number, unknown>;
  for (const oid of ARRAY_OIDS) delete serializers[oid];
}

// drizzle sends every query through sql.unsafe(), prepared only when built with .prepare(name).
// On PostgreSQL we prepare them all: otherwise each is parsed and planned anew (measured here:
// 2,900 token lookups/s unprepared against 12,600/s prepared). postgres.js caches a statement per
// connection and query text, and drizzle's texts are parameterised, so the set stays small. On
// the embedded server nothing may be prepared (one shared session: names would collide).
function preparing(sql: postgres.Sql, prepare: boolean): void {
  const unsafe = sql.unsafe.bind(sql);
  sql.unsafe = ((query: string, params?: postgres.ParameterOrJSON<never>[], options?: postgres.UnsafeQueryOptions) =>
    unsafe(query, params, { ...options, prepare })) as typeof sql.unsafe;
}

function connection(): Connection {
  // Kept on globalThis so that Next.js dev reloads and separately bundled route modules share
  // one pool per process.
  const g = globalThis as GlobalWithDb;
  if (!g[globalKey]) {
    const { url, embedded } = resolveUrl();
    g[globalKey] = connect(url, embedded);
  }
  return g[globalKey];
}

export function db(): Database {
  return connection().db;
}

export function rawSql(): postgres.Sql {
  return connection().sql;
}

/** Whether statements may be prepared (not on the embedded server's one shared session). */
export function canPrepare(): boolean {
  return !connection().embedded;
}

export async function closeDb(): Promise<void> {
  const g = globalThis as GlobalWithDb;
  const current = g[globalKey];
  g[globalKey] = undefined;
  await current?.sql.end({ timeout: 5 });
}
