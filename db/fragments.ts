import type postgres from "postgres";

// Helpers for statements written with postgres.js's tagged templates (the ingest path, the token
// lookup): values go in as parameters (`${value}`, `${values}::int[]` for unnest, always cast), and pieces
// of a statement are fragments (sql`…`), never text. Timestamps come back as epoch milliseconds
// so that no parser setting can change their type.

/** The pool or a transaction: a statement runs on either. */
export type Sql = postgres.Sql | postgres.TransactionSql;
export type Fragment = postgres.Fragment;

/** A timestamptz column as epoch milliseconds (float8). */
export const epochMs = (sql: Sql, column: Fragment): Fragment => sql`(extract(epoch from ${column}) * 1000)::float8`;

/** Fragments separated by commas (postgres.js joins an array of fragments with spaces). */
export function commaSeparated(sql: Sql, fragments: Fragment[]): Fragment[] {
  return fragments.flatMap((fragment, i) => (i === 0 ? [fragment] : [sql`,`, fragment]));
}
