-- What a driver granted an app (docs/oauth.md#scopes) and the driver's location pause per vehicle
-- (docs/driver-site.md#pause-location). Constant defaults: no table rewrite, and every existing grant
-- keeps everything, precise, as before scopes existed.
ALTER TABLE "account_grants" ADD COLUMN "location_precision" text DEFAULT 'precise' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_grants" ADD COLUMN "location_asked" text DEFAULT 'precise' NOT NULL;--> statement-breakpoint
ALTER TABLE "account_grants" ADD COLUMN "data_scope" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "account_grants" ADD COLUMN "account_scope" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "vehicles" ADD COLUMN "location_paused" boolean DEFAULT false NOT NULL;