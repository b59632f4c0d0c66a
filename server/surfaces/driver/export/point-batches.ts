import { rawSql } from "@/db/client";
import { FORMULA_START } from "@/server/access-log/csv";

// The export's data points as CSV text, a batch at a time by keyset on (recorded_at, id), the order of
// data_points_vehicle_time_idx: each batch is one short indexed statement, never the whole table in
// memory. PostgreSQL writes the batch's lines itself (the rules of server/access-log/csv.ts: an
// apostrophe wherever a spreadsheet could start a formula, FORMULA_START; a field holding a quote,
// comma or line break is quoted) and sends one string: a million points are then 200 strings for Node rather than a million
// rows of six, which kept the process's heap growing with garbage on a large heap (docs/benchmarks.md,
// bench:export). The row comparison alone would not prune data_points' month partitions: the plain
// bound on recorded_at beside it does, so a batch reads only the months from the cursor on. (The order
// names the table's columns: a bare `id` would be a text column of the select list.) postgres.js rather
// than drizzle: a hot path's statement (docs/architecture.md#reaching-the-database).

/** Where a batch ended: the last row's exact recorded_at (as PostgreSQL's text) and id. */
export type PointCursor = { k: string; id: string } | null;

export type PointCsvBatch = { rows: number; text: string; last: PointCursor };

type Sql = ReturnType<typeof rawSql>;

/** A text column as one CSV field, by the rules of csvField in server/access-log/csv.ts. */
const csvText = (sql: Sql, column: "key" | "value") => {
  const text = sql`coalesce(${sql(column)}, '')`;
  // The pattern only where it could match (a value starting so, or holding a separator): most values
  // are numbers and positions, and a regexp_replace on each of a million rows is not free.
  const mayRun = sql`left(ltrim(${text}, ' '), 1) in ('=', '+', '-', '@', chr(9), chr(13)) or ${text} ~ '[;\t\r\n]'`;
  const guarded = sql`(case when ${mayRun} then regexp_replace(${text}, ${FORMULA_START}, chr(39), 'g') else ${text} end)`;
  return sql`(case when strpos(${text}, '"') + strpos(${text}, ',') + strpos(${text}, chr(13)) + strpos(${text}, chr(10)) > 0
                   then '"' || replace(${guarded}, '"', '""') || '"' else ${guarded} end)`;
};

export async function readPointCsvBatch({
  vehicleId,
  after,
  limit,
}: {
  vehicleId: number;
  after: PointCursor;
  limit: number;
}): Promise<PointCsvBatch> {
  const sql = rawSql();
  const fromCursor = after
    ? sql`and recorded_at >= ${after.k}::timestamptz and (recorded_at, id) > (${after.k}::timestamptz, ${after.id}::bigint)`
    : sql``;
  const batch = sql`
    select id, data_set_id, recorded_at, key, value from data_points
     where vehicle_id = ${vehicleId} ${fromCursor}
     order by data_points.recorded_at, data_points.id
     limit ${limit}`;
  const [row] = await sql<{ rows: number; text: string | null; k: string | null; id: string | null }[]>`
    with batch as (${batch}),
    cells as (
      select id, recorded_at,
             ${vehicleId}::text || ',' || data_set_id::text || ',' || id::text || ',' ||
             to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || ',' ||
             ${csvText(sql, "key")} || ',' || ${csvText(sql, "value")} || chr(13) || chr(10) as line
        from batch
    )
    select count(*)::int as rows,
           string_agg(line, '' order by recorded_at, id) as text,
           (array_agg(recorded_at::text order by recorded_at desc, id desc))[1] as k,
           (array_agg(id::text order by recorded_at desc, id desc))[1] as id
      from cells`;
  return {
    rows: row!.rows,
    text: row!.text ?? "",
    last: row!.k && row!.id ? { k: row!.k, id: row!.id } : null,
  };
}
