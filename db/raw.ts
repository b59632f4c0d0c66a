import type postgres from "postgres";
import { canPrepare } from "./client";

// Hand-written statements on postgres.js, for the hot paths (ingest and what it triggers) where a
// batch becomes one multi-row statement through unnest(). Timestamps come back as epoch
// milliseconds so no parser setting can change their type.

export type Tx = postgres.TransactionSql;

// tx.unsafe() does not prepare by default; on PostgreSQL these statements repeat on every ingest.
export const runRaw = (tx: Tx, text: string, params: unknown[]) => tx.unsafe(text, params as never[], { prepare: canPrepare() });

export const epochMs = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/**
 * Numbered parameters for a statement composed from fragments: `p.add(value)` gives "$n", and
 * `p.array(values)` an array parameter (for unnest) in postgres.js's array form.
 */
export class Params {
  readonly values: unknown[] = [];
  constructor(private readonly sql: postgres.Sql) {}
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  array(values: (string | number | boolean | null)[]): string {
    return this.add(this.sql.array(values as postgres.SerializableParameter[]));
  }
}
