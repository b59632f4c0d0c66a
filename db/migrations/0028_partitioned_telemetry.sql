-- Time-partitioned telemetry (docs/decisions/0123-monthly-partitions.md, docs/partitions.md): data_sets and
-- data_points by recorded_at, delivery_attempts by attempted_at, one partition a calendar month (UTC), named
-- <table>_pYYYYMM, and a <table>_default partition for rows outside the months made, so no insert ever fails.
-- The worker makes the months ahead (db/partitions.ts); this migration makes this month and the next 3, so a
-- fresh database works before any worker ran, and the months of the rows already there (of the last 24
-- months: older rows, a device's clock gone wrong, stay in the default partition rather than make a
-- partition a month between).
--
-- A month from its first instant (UTC) to the next's: timestamptz + interval '1 month' would count in the
-- session's time zone.
CREATE FUNCTION wayline_month_after(t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS
  $$ SELECT (date_trunc('month', t AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC' $$;
--> statement-breakpoint
-- The partition of `parent` for the month (UTC) holding `month`, unless it exists. Rows of that month the
-- default partition caught (a bulk load ahead of time, an import) move into it first, in the same
-- transaction: PostgreSQL refuses a new partition while the default holds rows of its range. The table is
-- made apart and attached (which builds its indexes), under a lock on its name, so two workers at once make
-- it once.
CREATE FUNCTION wayline_create_partition(parent text, key text, month timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  starts timestamptz := date_trunc('month', month AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  ends timestamptz := wayline_month_after(month);
  part text := parent || '_p' || to_char(month AT TIME ZONE 'UTC', 'YYYYMM');
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(part));
  IF to_regclass(part) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS)', part, parent);
  EXECUTE format('WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
                 parent || '_default', key, starts, key, ends, part);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, part, starts, ends);
  RETURN true;
END $$;
--> statement-breakpoint
-- The months from now's to `ahead` months after it; how many were made.
CREATE FUNCTION wayline_ensure_partitions(parent text, key text, ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  month timestamptz := now();
  made integer := 0;
BEGIN
  FOR i IN 0..ahead LOOP
    IF wayline_create_partition(parent, key, month) THEN
      made := made + 1;
    END IF;
    month := wayline_month_after(month);
  END LOOP;
  RETURN made;
END $$;
--> statement-breakpoint
-- data_sets: the old table renamed aside, the partitioned one made with the same columns, its id drawing on
-- the same sequence (so ids go on where they were), the rows copied, the old table dropped, and the keys and
-- indexes built once over the copied rows. The primary key and the unique key carry the partition key.
ALTER TABLE "data_sets" RENAME TO "data_sets_unpartitioned";
--> statement-breakpoint
ALTER TABLE "data_points" RENAME TO "data_points_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "data_sets_id_seq" OWNED BY NONE;
--> statement-breakpoint
ALTER SEQUENCE "data_points_id_seq" OWNED BY NONE;
--> statement-breakpoint
CREATE TABLE "data_sets" (
	"id" bigint DEFAULT nextval('data_sets_id_seq'::regclass) NOT NULL,
	"environment" "environment" NOT NULL,
	"vehicle_id" integer NOT NULL,
	"trip_id" bigint,
	"recorded_at" timestamp with time zone NOT NULL,
	"ignition_status" text NOT NULL,
	"device_id" text,
	"vin" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY RANGE ("recorded_at");
--> statement-breakpoint
-- data_points carries no foreign key to data_sets: a key to a partitioned table would have to name the
-- set's recorded_at too (a column more in every point, a check per point on a partitioned table), and it
-- would keep a month of data sets from being dropped while points of it are elsewhere. The points of a
-- deleted data set go with it by the trigger below instead; ingest writes a set and its points in one
-- statement, so no point names a set that is not there.
CREATE TABLE "data_points" (
	"id" bigint DEFAULT nextval('data_points_id_seq'::regclass) NOT NULL,
	"vehicle_id" integer NOT NULL,
	"data_set_id" bigint NOT NULL,
	"position" smallint NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"key" text NOT NULL,
	"value" text NOT NULL,
	"tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL
) PARTITION BY RANGE ("recorded_at");
--> statement-breakpoint
ALTER SEQUENCE "data_sets_id_seq" OWNED BY "data_sets"."id";
--> statement-breakpoint
ALTER SEQUENCE "data_points_id_seq" OWNED BY "data_points"."id";
--> statement-breakpoint
CREATE TABLE "data_sets_default" PARTITION OF "data_sets" DEFAULT;
--> statement-breakpoint
CREATE TABLE "data_points_default" PARTITION OF "data_points" DEFAULT;
--> statement-breakpoint
SELECT wayline_ensure_partitions('data_sets', 'recorded_at', 3);
--> statement-breakpoint
SELECT count(*) FILTER (WHERE wayline_create_partition('data_sets', 'recorded_at', month)) FROM (
  SELECT DISTINCT date_trunc('month', "recorded_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM "data_sets_unpartitioned"
   WHERE "recorded_at" >= now() - interval '24 months') months;
--> statement-breakpoint
SELECT wayline_ensure_partitions('data_points', 'recorded_at', 3);
--> statement-breakpoint
SELECT count(*) FILTER (WHERE wayline_create_partition('data_points', 'recorded_at', month)) FROM (
  SELECT DISTINCT date_trunc('month', "recorded_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM "data_points_unpartitioned"
   WHERE "recorded_at" >= now() - interval '24 months') months;
--> statement-breakpoint
INSERT INTO "data_sets" ("id", "environment", "vehicle_id", "trip_id", "recorded_at", "ignition_status", "device_id", "vin", "received_at")
  SELECT "id", "environment", "vehicle_id", "trip_id", "recorded_at", "ignition_status", "device_id", "vin", "received_at" FROM "data_sets_unpartitioned";
--> statement-breakpoint
INSERT INTO "data_points" ("id", "vehicle_id", "data_set_id", "position", "recorded_at", "key", "value", "tx_id")
  SELECT "id", "vehicle_id", "data_set_id", "position", "recorded_at", "key", "value", "tx_id" FROM "data_points_unpartitioned";
--> statement-breakpoint
DROP TABLE "data_points_unpartitioned";
--> statement-breakpoint
DROP TABLE "data_sets_unpartitioned";
--> statement-breakpoint
ALTER TABLE "data_sets" ADD CONSTRAINT "data_sets_id_recorded_at_pk" PRIMARY KEY ("id", "recorded_at");
--> statement-breakpoint
ALTER TABLE "data_points" ADD CONSTRAINT "data_points_id_recorded_at_pk" PRIMARY KEY ("id", "recorded_at");
--> statement-breakpoint
ALTER TABLE "data_sets" ADD CONSTRAINT "data_sets_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "data_sets" ADD CONSTRAINT "data_sets_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "data_sets_vehicle_time_key" ON "data_sets" USING btree ("vehicle_id","recorded_at");
--> statement-breakpoint
CREATE INDEX "data_sets_trip_idx" ON "data_sets" USING btree ("trip_id","recorded_at");
--> statement-breakpoint
CREATE INDEX "data_points_vehicle_time_idx" ON "data_points" USING btree ("vehicle_id","recorded_at","id");
--> statement-breakpoint
CREATE INDEX "data_points_vehicle_key_time_idx" ON "data_points" USING btree ("vehicle_id","key","recorded_at","id");
--> statement-breakpoint
CREATE INDEX "data_points_data_set_idx" ON "data_points" USING btree ("data_set_id","position");
--> statement-breakpoint
CREATE INDEX "data_points_vehicle_tx_idx" ON "data_points" USING btree ("vehicle_id","tx_id","id");
--> statement-breakpoint
-- The cascade the foreign key gave: a statement deleting data sets (a vehicle's deletion cascades to its
-- sets) deletes their points. Statement-level with the deleted rows as a transition table, which PostgreSQL
-- allows on a partitioned table's root (not on its partitions); vehicle by vehicle, so each delete reads the
-- vehicle's points through its index in each month, never a join the planner could make a scan of all points.
CREATE FUNCTION wayline_delete_data_set_points() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vehicle integer;
BEGIN
  FOR vehicle IN SELECT DISTINCT vehicle_id FROM gone_sets LOOP
    DELETE FROM data_points p
     WHERE p.vehicle_id = vehicle AND p.data_set_id IN (SELECT id FROM gone_sets WHERE vehicle_id = vehicle);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_sets_delete_points AFTER DELETE ON data_sets
  REFERENCING OLD TABLE AS gone_sets
  FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_data_set_points();
--> statement-breakpoint
-- delivery_attempts, the same way, by attempted_at.
ALTER TABLE "delivery_attempts" RENAME TO "delivery_attempts_unpartitioned";
--> statement-breakpoint
ALTER SEQUENCE "delivery_attempts_id_seq" OWNED BY NONE;
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" bigint DEFAULT nextval('delivery_attempts_id_seq'::regclass) NOT NULL,
	"notification_delivery_id" bigint NOT NULL,
	"notification_id" bigint NOT NULL,
	"delivery_id" integer NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"target" text NOT NULL,
	"outcome" text NOT NULL,
	"http_status" integer,
	"latency_ms" integer NOT NULL,
	"error" text,
	"response_excerpt" text,
	"signed_content" text,
	"signature" text,
	"worker_id" text,
	"request_headers" jsonb
) PARTITION BY RANGE ("attempted_at");
--> statement-breakpoint
ALTER SEQUENCE "delivery_attempts_id_seq" OWNED BY "delivery_attempts"."id";
--> statement-breakpoint
CREATE TABLE "delivery_attempts_default" PARTITION OF "delivery_attempts" DEFAULT;
--> statement-breakpoint
SELECT wayline_ensure_partitions('delivery_attempts', 'attempted_at', 3);
--> statement-breakpoint
SELECT count(*) FILTER (WHERE wayline_create_partition('delivery_attempts', 'attempted_at', month)) FROM (
  SELECT DISTINCT date_trunc('month', "attempted_at" AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month FROM "delivery_attempts_unpartitioned"
   WHERE "attempted_at" >= now() - interval '24 months') months;
--> statement-breakpoint
INSERT INTO "delivery_attempts" ("id", "notification_delivery_id", "notification_id", "delivery_id", "attempted_at", "target", "outcome", "http_status", "latency_ms", "error", "response_excerpt", "signed_content", "signature", "worker_id", "request_headers")
  SELECT "id", "notification_delivery_id", "notification_id", "delivery_id", "attempted_at", "target", "outcome", "http_status", "latency_ms", "error", "response_excerpt", "signed_content", "signature", "worker_id", "request_headers" FROM "delivery_attempts_unpartitioned";
--> statement-breakpoint
DROP TABLE "delivery_attempts_unpartitioned";
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_id_attempted_at_pk" PRIMARY KEY ("id", "attempted_at");
--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_notification_delivery_id_notification_deliveries_id_fk" FOREIGN KEY ("notification_delivery_id") REFERENCES "public"."notification_deliveries"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "delivery_attempts" USING btree ("notification_delivery_id","id");
--> statement-breakpoint
CREATE INDEX "delivery_attempts_notification_idx" ON "delivery_attempts" USING btree ("notification_id","id");
--> statement-breakpoint
CREATE INDEX "delivery_attempts_health_idx" ON "delivery_attempts" USING btree ("delivery_id","attempted_at","outcome","http_status","latency_ms");
