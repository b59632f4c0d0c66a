CREATE TABLE "partner_app_owners" (
	"app_id" integer PRIMARY KEY NOT NULL,
	"partner_user_id" integer NOT NULL,
	"obligations_confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_app_owners" ADD CONSTRAINT "partner_app_owners_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_app_owners" ADD CONSTRAINT "partner_app_owners_partner_user_id_partner_users_id_fk" FOREIGN KEY ("partner_user_id") REFERENCES "public"."partner_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "partner_app_owners_user_idx" ON "partner_app_owners" USING btree ("partner_user_id","app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_users_email_key" ON "partner_users" USING btree ("email");