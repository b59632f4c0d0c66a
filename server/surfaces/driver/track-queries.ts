import { onReplica } from "@/db/replica";
import { pointsWithin } from "@/server/telemetry/point-span";

// A trip's track for the replay: one row per data set with a position, oldest first, with its
// speed when the data set has one. Straight through postgres.js (a 24-hour trip is 17,000 rows,
// and drizzle's per-row mapping of dates would be most of the cost); times as epoch milliseconds.
export type TrackRow = { t: number; waypoint: string; speed: string | null };

export async function readTrack({ vehicleId, tripId }: { vehicleId: number; tripId: number }): Promise<TrackRow[]> {
  // A heavy read: on the replica when there is one (db/replica.ts).
  return onReplica(
    ({ sql }) => sql<TrackRow[]>`
    select (extract(epoch from s.recorded_at) * 1000)::float8 as t,
           max(p.value) filter (where p.key = 'GEN_WAYPOINT') as waypoint,
           max(p.value) filter (where p.key = 'GEN_SPEED') as speed
      from data_sets s
      join data_points p on p.data_set_id = s.id and ${pointsWithin(sql)} and p.key in ('GEN_WAYPOINT', 'GEN_SPEED')
     where s.trip_id = ${tripId} and s.vehicle_id = ${vehicleId}
     group by s.id, s.recorded_at
    having max(p.value) filter (where p.key = 'GEN_WAYPOINT') is not null
     order by s.recorded_at`,
  );
}
