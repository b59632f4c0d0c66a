import { sql as drizzleSql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { enqueueDeliveries } from "@/server/notifications/pending-deliveries";

// The enqueue of deliveries is written once and built by its caller's tag (postgres.js for ingest,
// drizzle for the other writers of notifications): both must send PostgreSQL the same statement.
describe("enqueueDeliveries", () => {
  it("is the same statement in postgres.js and in drizzle, without parameters", () => {
    // A postgres.js instance only connects when a query runs; this one builds a fragment.
    const sql = postgres({ max: 1 });
    const fragment = enqueueDeliveries(sql) as unknown as { strings: readonly string[]; args: unknown[] };
    const drizzle = new PgDialect().sqlToQuery(enqueueDeliveries(drizzleSql));
    expect(fragment.args).toEqual([]);
    expect(drizzle.params).toEqual([]);
    expect(fragment.strings.join("")).toBe(drizzle.sql);
    expect(drizzle.sql).toMatch(
      /^insert into notification_deliveries .* for key share\) d on d\.subscription_id = n\.subscription_id$/s,
    );
  });
});
