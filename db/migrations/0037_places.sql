-- A driver's named places (docs/driver-site.md#places): a circle (centre, radius in metres) or a polygon
-- (an open ring of {latitude, longitude} in jsonb), per account and deleted with it.
CREATE TABLE "places" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"center_latitude" double precision,
	"center_longitude" double precision,
	"radius_m" double precision,
	"polygon" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "places_shape_check" CHECK (("places"."kind" = 'circle' and "places"."center_latitude" is not null and "places"."center_longitude" is not null and "places"."radius_m" is not null and "places"."polygon" is null) or ("places"."kind" = 'polygon' and "places"."polygon" is not null and "places"."center_latitude" is null and "places"."center_longitude" is null and "places"."radius_m" is null))
);
--> statement-breakpoint
ALTER TABLE "places" ADD CONSTRAINT "places_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "places_account_idx" ON "places" USING btree ("account_id","id");
