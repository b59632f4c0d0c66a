-- Shared live locations (docs/driver-site.md#share-a-live-location): a driver's link to one vehicle's
-- position, until it ends, and each opening of it (a line of the driver's access log as "shared link").
CREATE TABLE "share_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"vehicle_id" integer NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "share_link_views" (
	"id" serial PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"viewed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "share_link_views" ADD CONSTRAINT "share_link_views_link_id_share_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "share_links_token_key" ON "share_links" USING btree ("token");
--> statement-breakpoint
CREATE INDEX "share_links_vehicle_idx" ON "share_links" USING btree ("vehicle_id","ends_at");
--> statement-breakpoint
CREATE INDEX "share_links_account_idx" ON "share_links" USING btree ("account_id");
--> statement-breakpoint
CREATE INDEX "share_link_views_link_idx" ON "share_link_views" USING btree ("link_id","viewed_at");
--> statement-breakpoint
-- The live maps, and now the shared pages, are woken when a vehicle's pause changes too: a shared page
-- stops showing the position as soon as the driver pauses location, not at its next heartbeat.
CREATE OR REPLACE FUNCTION wayline_notify_positions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  SELECT string_agg(DISTINCT a.account_id::text, ',') INTO changed
    FROM after_rows a JOIN before_rows b ON b.id = a.id
    WHERE a.last_latitude IS DISTINCT FROM b.last_latitude
       OR a.last_longitude IS DISTINCT FROM b.last_longitude
       OR a.last_waypoint_at IS DISTINCT FROM b.last_waypoint_at
       OR a.running IS DISTINCT FROM b.running
       OR a.location_paused IS DISTINCT FROM b.location_paused;
  IF changed IS NOT NULL THEN
    PERFORM pg_notify('wayline_positions', CASE WHEN length(changed) > 7000 THEN '*' ELSE changed END);
  END IF;
  RETURN NULL;
END $$;
