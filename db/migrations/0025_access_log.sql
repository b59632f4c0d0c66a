-- The access log (docs/driver-site.md#data-access): hourly counters per account, app and data category,
-- written by each process every few seconds (server/access-log/flush.ts).
CREATE TABLE "access_counts" (
	"account_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"category" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "access_counts_account_id_app_id_category_hour_pk" PRIMARY KEY("account_id","app_id","category","hour"),
	CONSTRAINT "access_counts_category_check" CHECK ("access_counts"."category" in ('location', 'vehicle_data', 'identity', 'events'))
);
--> statement-breakpoint
ALTER TABLE "access_counts" ADD CONSTRAINT "access_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_counts" ADD CONSTRAINT "access_counts_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "access_counts_app_hour_idx" ON "access_counts" USING btree ("app_id","hour");--> statement-breakpoint
CREATE INDEX "access_counts_hour_idx" ON "access_counts" USING btree ("hour");