CREATE TYPE "public"."environment" AS ENUM('production', 'sandbox');--> statement-breakpoint
CREATE TABLE "app_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"environment" "environment" NOT NULL,
	"client_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"redirect_uris" text[] DEFAULT '{}' NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"data_provider" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "account_grants" (
	"account_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"source" text NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "account_grants_account_id_app_id_pk" PRIMARY KEY("account_id","app_id")
);
--> statement-breakpoint
CREATE TABLE "accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"zipcode" text,
	"phone" text,
	"time_zone" text,
	"preferred_contact" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"serial" text NOT NULL,
	"vehicle_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"account_id" integer NOT NULL,
	"vin" text,
	"label" text,
	"auto_assign_device" boolean DEFAULT true NOT NULL,
	"mileage" double precision DEFAULT 0 NOT NULL,
	"year" text,
	"make" text,
	"model" text,
	"running" boolean DEFAULT false NOT NULL,
	"last_running_at" timestamp with time zone,
	"last_waypoint_at" timestamp with time zone,
	"last_latitude" double precision,
	"last_longitude" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"code_hash" text NOT NULL,
	"credential_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"origin" text NOT NULL,
	"redirect_uri" text,
	"code_challenge" text,
	"code_challenge_method" text,
	"scopes" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oauth_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"environment" "environment" NOT NULL,
	"credential_id" integer NOT NULL,
	"account_id" integer,
	"access_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_hash" text,
	"refresh_expires_at" timestamp with time zone,
	"refresh_used_at" timestamp with time zone,
	"family_id" text NOT NULL,
	"origin_code_id" integer,
	"grant_type" text NOT NULL,
	"scopes" text DEFAULT '' NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_credentials" ADD CONSTRAINT "app_credentials_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_grants" ADD CONSTRAINT "account_grants_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "account_grants" ADD CONSTRAINT "account_grants_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_credential_id_app_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."app_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_codes" ADD CONSTRAINT "oauth_codes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_credential_id_app_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."app_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD CONSTRAINT "oauth_tokens_origin_code_id_oauth_codes_id_fk" FOREIGN KEY ("origin_code_id") REFERENCES "public"."oauth_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_credentials_client_id_key" ON "app_credentials" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "app_credentials_app_env_key" ON "app_credentials" USING btree ("app_id","environment");--> statement-breakpoint
CREATE INDEX "account_grants_app_idx" ON "account_grants" USING btree ("app_id","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_env_username_key" ON "accounts" USING btree ("environment",lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "devices_env_serial_key" ON "devices" USING btree ("environment","serial");--> statement-breakpoint
CREATE UNIQUE INDEX "devices_vehicle_key" ON "devices" USING btree ("vehicle_id");--> statement-breakpoint
CREATE INDEX "vehicles_account_idx" ON "vehicles" USING btree ("account_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_codes_hash_key" ON "oauth_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_tokens_access_key" ON "oauth_tokens" USING btree ("access_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_tokens_refresh_key" ON "oauth_tokens" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "oauth_tokens_family_idx" ON "oauth_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_origin_code_idx" ON "oauth_tokens" USING btree ("origin_code_id");--> statement-breakpoint
CREATE INDEX "oauth_tokens_account_idx" ON "oauth_tokens" USING btree ("account_id");