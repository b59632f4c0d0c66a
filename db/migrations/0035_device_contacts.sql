-- What the device gateway saw of each device id, per environment (docs/devices.md#what-the-gateway-keeps):
-- its protocol, last contact, newest record and records of the day, its last refusal, the contacts refused
-- while no vehicle named it, the ignition and motion its trips are made from, and its open connection.
CREATE TABLE "device_contacts" (
	"environment" "environment" NOT NULL,
	"device_id" text NOT NULL,
	"protocol" text NOT NULL,
	"last_contact_at" timestamp with time zone NOT NULL,
	"last_record_at" timestamp with time zone,
	"records_day" date,
	"records_on_day" integer DEFAULT 0 NOT NULL,
	"last_refusal_at" timestamp with time zone,
	"last_refusal_reason" text,
	"unknown_contacts" integer DEFAULT 0 NOT NULL,
	"ignition" boolean,
	"motion_at" timestamp with time zone,
	"connection" text,
	"connected_at" timestamp with time zone,
	CONSTRAINT "device_contacts_environment_device_id_pk" PRIMARY KEY("environment","device_id"),
	CONSTRAINT "device_contacts_protocol_check" CHECK ("device_contacts"."protocol" in ('osmand', 'teltonika', 'gt06'))
);
--> statement-breakpoint
CREATE INDEX "device_contacts_last_contact_idx" ON "device_contacts" USING btree ("last_contact_at");
