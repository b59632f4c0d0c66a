-- Each vehicle's newest point of each key, a copy kept by ingest in the statement that writes the points
-- (docs/partitions.md#the-newest-point-of-each-key): GET …/data/?mostRecentOnly=true reads it instead of
-- finding each key's newest point in data_points, which probes every month's partition once per key (a
-- default partition rules out an ordered Append) and grew with the months kept. Filled here from the points
-- the database holds: one pass over data_points, like the copy of migration 0028.
CREATE TABLE "latest_data_points" (
	"vehicle_id" integer NOT NULL,
	"key" text NOT NULL,
	"point_id" bigint NOT NULL,
	"data_set_id" bigint NOT NULL,
	"position" smallint NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "latest_data_points_vehicle_id_key_pk" PRIMARY KEY("vehicle_id","key")
);
--> statement-breakpoint
ALTER TABLE "latest_data_points" ADD CONSTRAINT "latest_data_points_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- The newest by time, and of two points at the same time the later written (the larger id), as the read did.
INSERT INTO "latest_data_points" ("vehicle_id", "key", "point_id", "data_set_id", "position", "recorded_at", "value")
  SELECT DISTINCT ON ("vehicle_id", "key") "vehicle_id", "key", "id", "data_set_id", "position", "recorded_at", "value"
    FROM "data_points" ORDER BY "vehicle_id", "key", "recorded_at" DESC, "id" DESC;
