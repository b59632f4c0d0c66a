import { db, type Database } from "./client";

// Hot read paths build their drizzle query once per process and run it with placeholders:
// building a query costs more CPU than PostgreSQL spends answering it (profiled: drizzle's
// builder was a quarter of a GET /vehicle/). Cached per database instance, so a reconnect
// (tests, dev reloads) prepares again.
const cache = new WeakMap<Database, Map<string, unknown>>();

export function prepared<T>(name: string, build: (db: Database) => T): T {
  const database = db();
  let queries = cache.get(database);
  if (!queries) cache.set(database, (queries = new Map()));
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(database);
    queries.set(name, query);
  }
  return query;
}
