-- Points counted by vehicle, key and calendar month (UTC, the month of data_points' partitions): retention
-- then drops a whole month by taking that month's counter rows off the totals, without counting the
-- month's points under its lock (docs/partitions.md#retention), so the drop takes the same time however
-- many points the month holds. The totals the API reports sum a vehicle's months (a few rows per key).
-- The existing counters are recounted by month from the points: one pass over data_points, like the copy
-- of migration 0028.
ALTER TABLE "vehicle_key_stats" DROP CONSTRAINT "vehicle_key_stats_vehicle_id_key_pk";
--> statement-breakpoint
ALTER TABLE "vehicle_key_stats" ADD COLUMN "month" date;
--> statement-breakpoint
DELETE FROM "vehicle_key_stats";
--> statement-breakpoint
INSERT INTO "vehicle_key_stats" ("vehicle_id", "key", "month", "data_points")
  SELECT "vehicle_id", "key", date_trunc('month', "recorded_at" AT TIME ZONE 'UTC')::date, count(*)
    FROM "data_points" GROUP BY 1, 2, 3;
--> statement-breakpoint
ALTER TABLE "vehicle_key_stats" ALTER COLUMN "month" SET NOT NULL;
--> statement-breakpoint
ALTER TABLE "vehicle_key_stats" ADD CONSTRAINT "vehicle_key_stats_vehicle_id_key_month_pk" PRIMARY KEY ("vehicle_id", "key", "month");
--> statement-breakpoint
-- Retention finds a month's rows by the month.
CREATE INDEX "vehicle_key_stats_month_idx" ON "vehicle_key_stats" ("month");
