CREATE TABLE "notification_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" bigint NOT NULL,
	"delivery_id" integer NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"subscription_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"account_id" integer,
	"vehicle_id" integer,
	"data_set_id" bigint,
	"trip_id" bigint,
	"type" text NOT NULL,
	"event_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"body" jsonb NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"http_status_code" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscription_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"type" text NOT NULL,
	"post_url" text,
	"post_headers" jsonb,
	"oauth2" jsonb,
	"recipient" text,
	"subscriber_subject" text,
	"subscriber_content" text,
	"active" boolean DEFAULT true NOT NULL,
	"deactivation_reason" text,
	"deactivated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscription_states" (
	"subscription_id" integer NOT NULL,
	"vehicle_id" integer NOT NULL,
	"met" boolean NOT NULL,
	"evaluated_at" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone,
	"anchor_latitude" double precision,
	"anchor_longitude" double precision,
	CONSTRAINT "subscription_states_subscription_id_vehicle_id_pk" PRIMARY KEY("subscription_id","vehicle_id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"app_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"scope" text NOT NULL,
	"account_id" integer,
	"vehicle_id" integer,
	"type" text NOT NULL,
	"notification_period" text NOT NULL,
	"minimum_time" integer DEFAULT 0 NOT NULL,
	"criteria" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"post_url" text,
	"post_headers" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_delivery_id_subscription_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."subscription_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_deliveries" ADD CONSTRAINT "subscription_deliveries_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_states" ADD CONSTRAINT "subscription_states_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_states" ADD CONSTRAINT "subscription_states_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_deliveries_notification_idx" ON "notification_deliveries" USING btree ("notification_id");--> statement-breakpoint
CREATE INDEX "notification_deliveries_delivery_idx" ON "notification_deliveries" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "notifications_subscription_idx" ON "notifications" USING btree ("subscription_id","event_at","id");--> statement-breakpoint
CREATE INDEX "notifications_vehicle_idx" ON "notifications" USING btree ("vehicle_id","app_id","event_at","id");--> statement-breakpoint
CREATE INDEX "notifications_account_idx" ON "notifications" USING btree ("account_id","app_id","event_at","id");--> statement-breakpoint
CREATE INDEX "subscription_deliveries_subscription_idx" ON "subscription_deliveries" USING btree ("subscription_id","position");--> statement-breakpoint
CREATE INDEX "subscriptions_vehicle_live_idx" ON "subscriptions" USING btree ("vehicle_id") WHERE "subscriptions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "subscriptions_account_live_idx" ON "subscriptions" USING btree ("account_id","type") WHERE "subscriptions"."deleted_at" is null and "subscriptions"."scope" = 'ACCOUNT';--> statement-breakpoint
CREATE INDEX "subscriptions_app_idx" ON "subscriptions" USING btree ("app_id","environment","scope","id");