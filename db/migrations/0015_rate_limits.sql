-- Edited by hand after generation: UNLOGGED (no WAL, so a check commits without a disk flush;
-- after a crash the table comes back empty, i.e. every bucket full, which is harmless).
CREATE UNLOGGED TABLE "rate_limits" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"tat" timestamp with time zone NOT NULL,
	"emission_ms" double precision NOT NULL,
	"burst" integer NOT NULL,
	"allowed" boolean NOT NULL,
	CONSTRAINT "rate_limits_scope_key_pk" PRIMARY KEY("scope","key")
);
