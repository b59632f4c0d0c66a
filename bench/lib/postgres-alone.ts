import type postgres from "postgres";

// A batch of data sets inserted by PostgreSQL alone: the two inserts of server/telemetry/ingest/write.ts (the
// sets, then their points, each one INSERT … SELECT unnest), in one transaction, and nothing else ingest does
// (no vehicle row, trips, counters, newest-point copies or answer). bench:ingest (b) and bench:scale compare
// the API's batches with it: what the same rows cost the database when nothing stands between.

/** A point of a set: its key and value, by the set's index in the batch. */
export type AlonePoint = (set: number) => [key: string, value: string];

/**
 * Inserts one data set at each of `times` for the vehicle, with the points `points` gives each, into `schema`'s
 * data_sets and data_points ("public": the tables ingest writes).
 */
export async function insertAlone(
  sql: postgres.Sql,
  schema: string,
  vehicleId: number,
  times: Date[],
  points: AlonePoint[],
): Promise<void> {
  await sql.begin(async (tx) => {
    const ids = await tx.unsafe(
      `insert into ${schema}.data_sets (environment, vehicle_id, recorded_at, points_from, points_to, ignition_status, trip_id, device_id, vin)
       select $1, $2, s.at, s.at, s.at, s.ignition, s.trip, s.device, s.vin
         from unnest($3::timestamptz[], $4::text[], $5::bigint[], $6::text[], $7::text[]) as s(at, ignition, trip, device, vin)
       returning id, (extract(epoch from recorded_at) * 1000)::float8 as at`,
      [
        "production",
        vehicleId,
        times.map((d) => d.toISOString()),
        times.map(() => "RUNNING"),
        times.map(() => null),
        times.map(() => null),
        times.map(() => null),
      ] as never[],
      { prepare: true },
    );
    const setId = new Map(ids.map((r) => [Number(r.at), String(r.id)]));
    const rows = times.flatMap((d, i) =>
      points.map((point, position) => {
        const [key, value] = point(i);
        return [setId.get(d.getTime())!, String(position), d.toISOString(), key, value];
      }),
    );
    await tx.unsafe(
      `insert into ${schema}.data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
       select $1, p.set_id, p.pos, p.at, p.key, p.value
         from unnest($2::bigint[], $3::smallint[], $4::timestamptz[], $5::text[], $6::text[]) as p(set_id, pos, at, key, value)
       returning id, data_set_id, position`,
      [vehicleId, ...[0, 1, 2, 3, 4].map((c) => rows.map((r) => r[c]!))] as never[],
      { prepare: true },
    );
  });
}
