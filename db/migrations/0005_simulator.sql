CREATE TABLE "simulation_routes" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"network" text NOT NULL,
	"geometry" jsonb NOT NULL,
	"length_meters" double precision NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "simulation_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"vehicle_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"credential_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"account_id" integer,
	"route_id" integer,
	"template_id" text,
	"network" text,
	"geometry" jsonb NOT NULL,
	"length_meters" double precision NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"stop_reason" text,
	"speed_up" integer DEFAULT 1 NOT NULL,
	"collection_period" integer NOT NULL,
	"seed" integer NOT NULL,
	"repeat" boolean DEFAULT false NOT NULL,
	"params" jsonb NOT NULL,
	"lap" integer DEFAULT 0 NOT NULL,
	"lap_started_at" timestamp with time zone NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"next_due_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"park_pending" boolean DEFAULT false NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"data_set_count" integer DEFAULT 0 NOT NULL,
	"trip_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "simulation_routes" ADD CONSTRAINT "simulation_routes_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_credential_id_app_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."app_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_route_id_simulation_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."simulation_routes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "simulation_runs" ADD CONSTRAINT "simulation_runs_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "simulation_routes_app_idx" ON "simulation_routes" USING btree ("app_id","id");--> statement-breakpoint
CREATE INDEX "simulation_runs_vehicle_idx" ON "simulation_runs" USING btree ("vehicle_id","created_at","id");--> statement-breakpoint
CREATE INDEX "simulation_runs_due_idx" ON "simulation_runs" USING btree ("status","next_due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulation_runs_vehicle_running_key" ON "simulation_runs" USING btree ("vehicle_id") WHERE "simulation_runs"."status" = 'running';