import { rawSql } from "@/db/client";

// The export's data points, read a batch at a time by keyset on (recorded_at, id), the order of
// data_points_vehicle_time_idx: each batch is one short indexed statement, never the whole table
// in memory. The row comparison alone would not prune data_points' month partitions: the plain bound on
// recorded_at beside it does, so a batch reads only the months from the cursor on. (The order names the table's columns: a bare `id` would be the text column of the
// select list, and "10000" sorts before "9999".) postgres.js rather than drizzle (a large read: docs/architecture.md#reaching-the-database):
// a million points are a million rows, and the columns come as the text the CSV writes.

export type PointLine = { id: string; dataSetId: string; at: string; key: string; value: string; k: string };

/** Where a batch ended: the last row's exact recorded_at (as PostgreSQL's text) and id. */
export type PointCursor = { k: string; id: string } | null;

export async function readPointBatch({
  vehicleId,
  after,
  limit,
}: {
  vehicleId: number;
  after: PointCursor;
  limit: number;
}): Promise<PointLine[]> {
  const sql = rawSql();
  return after
    ? sql<PointLine[]>`
        select id::text as id, data_set_id::text as "dataSetId",
               to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
               key, value, recorded_at::text as k
          from data_points
         where vehicle_id = ${vehicleId} and recorded_at >= ${after.k}::timestamptz
           and (recorded_at, id) > (${after.k}::timestamptz, ${after.id}::bigint)
         order by data_points.recorded_at, data_points.id
         limit ${limit}`
    : sql<PointLine[]>`
        select id::text as id, data_set_id::text as "dataSetId",
               to_char(recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
               key, value, recorded_at::text as k
          from data_points
         where vehicle_id = ${vehicleId}
         order by data_points.recorded_at, data_points.id
         limit ${limit}`;
}
