-- data_sets.trip_id without its foreign key (as migrations 0012 and 0032 did for the notifications'
-- and the pending deliveries' keys): the key checked every inserted set, 1.75 ms of a 500-set batch's
-- statement (docs/benchmarks.md). Ingest is the one writer of data sets (server/telemetry/ingest/write.ts),
-- and a set's trip is one that statement read or created for the set's own vehicle while holding the
-- vehicle's row lock (FOR NO KEY UPDATE); trips are deleted only with their vehicle (trips.vehicle_id
-- cascades), and deleting the vehicle waits for that lock: what a set names exists. What the key did
-- when a trip goes (SET NULL) a statement trigger does, once a statement; sets whose vehicle went in
-- the same statement are left to the vehicle's own cascade, which deletes them.
ALTER TABLE "data_sets" DROP CONSTRAINT "data_sets_trip_id_trips_id_fk";
--> statement-breakpoint
CREATE FUNCTION wayline_trips_unset_data_sets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE data_sets SET trip_id = NULL
   WHERE trip_id IN (SELECT g.id FROM gone g WHERE EXISTS (SELECT 1 FROM vehicles v WHERE v.id = g.vehicle_id));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trips_unset_data_sets AFTER DELETE ON trips
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_trips_unset_data_sets();
