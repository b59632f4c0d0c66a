import { rawSql } from "@/db/client";
import type { Outcome } from "./runner";

// The simulator loop's batch write, the one statement of its tick that grows with the fleet: an
// update from unnest() over array parameters, in postgres.js tagged templates
// (docs/architecture.md#reaching-the-database).

/**
 * Records where each driven run is now and releases it, in one statement for the whole batch. A
 * stop that arrived while a run was being driven wins; an OFF is then owed (the next claim parks
 * the vehicle) when the data sets just posted left a trip open.
 */
export async function saveOutcomes(outcomes: Outcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const sql = rawSql();
  const col = <T>(f: (o: Outcome) => T) =>
    outcomes.map((o) => {
      const v = f(o);
      return v === null ? null : String(v);
    }) as string[];
  await sql`update simulation_runs r set
        lap = v.lap, lap_started_at = v.lap_started_at, next_index = v.next_index, trip_id = v.trip_id,
        progress = v.progress, data_set_count = r.data_set_count + v.posted, lease_until = null, updated_at = now(),
        status = case when v.finished and r.status = 'running' then 'finished' else r.status end,
        ended_at = case when v.finished then coalesce(r.ended_at, now()) else r.ended_at end,
        park_pending = r.status = 'stopped' and v.trip_open,
        next_due_at = case when r.status = 'stopped' then (case when v.trip_open then now() else null end) else v.next_due end
      from unnest(${col((o) => o.id)}::int[], ${col((o) => o.lap)}::int[],
        ${col((o) => o.lapStartedAt.toISOString())}::timestamptz[], ${col((o) => o.nextIndex)}::int[],
                  ${col((o) => o.tripId)}::bigint[], ${col((o) => o.progress)}::float8[], ${col((o) => o.posted)}::int[], ${col((o) => o.finished)}::bool[],
                  ${col((o) => o.tripOpen)}::bool[], ${col((o) => (o.nextDue ? o.nextDue.toISOString() : null))}::timestamptz[])
        as v(id, lap, lap_started_at, next_index, trip_id, progress, posted, finished, trip_open, next_due)
     where r.id = v.id`;
}
