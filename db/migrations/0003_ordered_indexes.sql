DROP INDEX "data_points_vehicle_time_idx";--> statement-breakpoint
DROP INDEX "data_points_vehicle_key_time_idx";--> statement-breakpoint
DROP INDEX "data_sets_trip_idx";--> statement-breakpoint
DROP INDEX "trips_vehicle_start_idx";--> statement-breakpoint
CREATE INDEX "data_points_vehicle_time_idx" ON "data_points" USING btree ("vehicle_id","recorded_at","id");--> statement-breakpoint
CREATE INDEX "data_points_vehicle_key_time_idx" ON "data_points" USING btree ("vehicle_id","key","recorded_at","id");--> statement-breakpoint
CREATE INDEX "data_sets_trip_idx" ON "data_sets" USING btree ("trip_id","recorded_at");--> statement-breakpoint
CREATE INDEX "trips_vehicle_start_idx" ON "trips" USING btree ("vehicle_id","start_time");