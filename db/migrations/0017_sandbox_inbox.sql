CREATE TABLE "sandbox_inbox_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"method" text NOT NULL,
	"headers" jsonb NOT NULL,
	"body" text NOT NULL,
	"answer_status" integer NOT NULL,
	"signature_valid" boolean,
	"signature_note" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_inboxes" (
	"app_id" integer PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"answer_status" integer DEFAULT 200 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD COLUMN "request_headers" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_inbox_requests" ADD CONSTRAINT "sandbox_inbox_requests_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_inboxes" ADD CONSTRAINT "sandbox_inboxes_app_id_partner_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."partner_apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_inbox_requests_app_idx" ON "sandbox_inbox_requests" USING btree ("app_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_inboxes_token_key" ON "sandbox_inboxes" USING btree ("token");