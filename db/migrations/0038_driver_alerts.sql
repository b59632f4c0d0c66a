-- The driver's own alerts (docs/alerts.md): preferences per kind, quiet hours, the episodes that keep a
-- flapping condition to one alert, the alerts and their deliveries per channel (the worker's queue for
-- them, woken by the same NOTIFY as notification_deliveries), and the outbox's link to an alert e-mail.
CREATE TABLE "alert_preferences" (
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"email" boolean DEFAULT false NOT NULL,
	"browser" boolean DEFAULT false NOT NULL,
	"threshold" double precision,
	"unit" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "alert_preferences_account_id_kind_pk" PRIMARY KEY("account_id","kind")
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"quiet_from" text,
	"quiet_to" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_episodes" (
	"account_id" integer NOT NULL,
	"vehicle_id" integer NOT NULL,
	"kind" text NOT NULL,
	"place_id" integer DEFAULT 0 NOT NULL,
	"open" boolean NOT NULL,
	"opened_at" timestamp with time zone,
	"clear_since" timestamp with time zone,
	"evaluated_at" timestamp with time zone NOT NULL,
	"anchor_latitude" double precision,
	"anchor_longitude" double precision,
	CONSTRAINT "alert_episodes_account_id_vehicle_id_kind_place_id_pk" PRIMARY KEY("account_id","vehicle_id","kind","place_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"vehicle_id" integer,
	"kind" text NOT NULL,
	"place_id" integer,
	"at" timestamp with time zone NOT NULL,
	"summary" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"quiet" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"alert_id" bigint NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"failing_since" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "alert_delivery_id" bigint;
--> statement-breakpoint
ALTER TABLE "alert_preferences" ADD CONSTRAINT "alert_preferences_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD CONSTRAINT "alert_episodes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alert_episodes" ADD CONSTRAINT "alert_episodes_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_alert_delivery_id_alert_deliveries_id_fk" FOREIGN KEY ("alert_delivery_id") REFERENCES "public"."alert_deliveries"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "alerts_account_idx" ON "alerts" USING btree ("account_id","id");
--> statement-breakpoint
CREATE INDEX "alerts_vehicle_idx" ON "alerts" USING btree ("vehicle_id");
--> statement-breakpoint
CREATE INDEX "alert_deliveries_alert_idx" ON "alert_deliveries" USING btree ("alert_id");
--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("next_attempt_at") WHERE "alert_deliveries"."status" = 'PENDING';
--> statement-breakpoint
CREATE INDEX "email_outbox_alert_delivery_idx" ON "email_outbox" USING btree ("alert_delivery_id");
--> statement-breakpoint
-- New pending alert deliveries wake the delivery workers with the notifications' own NOTIFY, once a
-- statement, when its transaction commits (the function tests the inserted rows' status only).
CREATE TRIGGER alert_deliveries_enqueue AFTER INSERT ON alert_deliveries
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION wayline_enqueue_notification_deliveries();
