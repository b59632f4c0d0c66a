import type postgres from "postgres";

/**
 * For points a bench wrote straight into data_points (not through ingest): each key's newest point of these
 * vehicles copied into latest_data_points, as ingest keeps it, so GET …/data/?mostRecentOnly=true answers
 * as it would after the same points were posted. One probe per vehicle and key, newest first.
 */
export async function copyLatestPoints(sql: postgres.Sql | postgres.TransactionSql, vehicleIds: number[]) {
  await sql`
    insert into latest_data_points (vehicle_id, key, point_id, data_set_id, position, recorded_at, value)
    select p.vehicle_id, p.key, p.id, p.data_set_id, p.position, p.recorded_at, p.value
      from (select distinct vehicle_id, key from vehicle_key_stats where vehicle_id = any(${vehicleIds}::int[])) k
      cross join lateral (select * from data_points where vehicle_id = k.vehicle_id and key = k.key
                           order by recorded_at desc, id desc limit 1) p
    on conflict (vehicle_id, key) do update set point_id = excluded.point_id, data_set_id = excluded.data_set_id,
      position = excluded.position, recorded_at = excluded.recorded_at, value = excluded.value
     where (excluded.recorded_at, excluded.point_id) > (latest_data_points.recorded_at, latest_data_points.point_id)`;
}
