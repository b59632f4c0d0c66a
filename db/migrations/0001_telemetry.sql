CREATE TABLE "data_cursors" (
	"app_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"tx_id" "xid8" NOT NULL,
	"point_id" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_cursors_app_id_account_id_pk" PRIMARY KEY("app_id","account_id")
);
--> statement-breakpoint
CREATE TABLE "data_points" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"vehicle_id" integer NOT NULL,
	"data_set_id" bigint NOT NULL,
	"position" smallint NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_sets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"vehicle_id" integer NOT NULL,
	"trip_id" bigint,
	"recorded_at" timestamp with time zone NOT NULL,
	"ignition_status" text NOT NULL,
	"device_id" text,
	"vin" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trips" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"vehicle_id" integer NOT NULL,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone,
	"last_data_at" timestamp with time zone NOT NULL,
	"mileage" double precision,
	"start_waypoint_at" timestamp with time zone,
	"start_latitude" double precision,
	"start_longitude" double precision,
	"end_waypoint_at" timestamp with time zone,
	"end_latitude" double precision,
	"end_longitude" double precision
);
--> statement-breakpoint
CREATE TABLE "vehicle_data_stats" (
	"vehicle_id" integer PRIMARY KEY NOT NULL,
	"data_sets" bigint DEFAULT 0 NOT NULL,
	"data_points" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicle_key_stats" (
	"vehicle_id" integer NOT NULL,
	"key" text NOT NULL,
	"data_points" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "vehicle_key_stats_vehicle_id_key_pk" PRIMARY KEY("vehicle_id","key")
);
--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "last_data_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_cursors" ADD CONSTRAINT "data_cursors_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_cursors" ADD CONSTRAINT "data_cursors_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_points" ADD CONSTRAINT "data_points_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_points" ADD CONSTRAINT "data_points_data_set_id_data_sets_id_fk" FOREIGN KEY ("data_set_id") REFERENCES "public"."data_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_sets" ADD CONSTRAINT "data_sets_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_sets" ADD CONSTRAINT "data_sets_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trips" ADD CONSTRAINT "trips_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_data_stats" ADD CONSTRAINT "vehicle_data_stats_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_key_stats" ADD CONSTRAINT "vehicle_key_stats_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_points_vehicle_time_idx" ON "data_points" USING btree ("vehicle_id","recorded_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "data_points_vehicle_key_time_idx" ON "data_points" USING btree ("vehicle_id","key","recorded_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "data_points_data_set_idx" ON "data_points" USING btree ("data_set_id","position");--> statement-breakpoint
CREATE INDEX "data_points_vehicle_tx_idx" ON "data_points" USING btree ("vehicle_id","tx_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_sets_vehicle_time_key" ON "data_sets" USING btree ("vehicle_id","recorded_at");--> statement-breakpoint
CREATE INDEX "data_sets_trip_idx" ON "data_sets" USING btree ("trip_id","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trips_vehicle_start_idx" ON "trips" USING btree ("vehicle_id","start_time" DESC NULLS LAST);