CREATE TABLE "delivery_attempt_rollups" (
	"delivery_id" integer NOT NULL,
	"bucket_seconds" integer NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"attempts" integer NOT NULL,
	"delivered" integer NOT NULL,
	"failures" jsonb NOT NULL,
	"latency" jsonb NOT NULL,
	CONSTRAINT "delivery_attempt_rollups_delivery_id_bucket_seconds_bucket_start_pk" PRIMARY KEY("delivery_id","bucket_seconds","bucket_start")
);
