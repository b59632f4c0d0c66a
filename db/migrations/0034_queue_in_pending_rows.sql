-- The delivery queue moves onto the pending rows themselves: a PENDING notification_deliveries row
-- carries its schedule (attempts, next_attempt_at, failing_since) and its lease (lease_owner,
-- lease_until), and the workers claim due rows of notification_deliveries through the partial index
-- notification_deliveries_due_idx (server/delivery/claims.ts). delivery_jobs, its entry per pending
-- row, and the trigger that wrote those entries go: a subscribed batch of 500 data sets wrote about
-- 500 entries with their two indexes in its own statement, about 1 ms of PostgreSQL's time per 520
-- rows (docs/benchmarks.md). The new columns only mean something while the row is PENDING.
--
-- The sweeper's index (notification_deliveries_pending_idx, migration 0007; the sweeper went in 0019)
-- gives way to the due index: the metrics' count of pending rows and their oldest read
-- notification_deliveries_pending_by_delivery_idx, which holds the same rows.
ALTER TABLE "notification_deliveries"
  ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL,
  ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "failing_since" timestamp with time zone,
  ADD COLUMN "lease_owner" text,
  ADD COLUMN "lease_until" timestamp with time zone;
--> statement-breakpoint
-- What the queue held for rows still pending. A pending row without an entry (none in normal
-- operation) is due now, as the column's default says.
UPDATE notification_deliveries nd
   SET attempts = j.attempts, next_attempt_at = j.next_attempt_at, failing_since = j.failing_since,
       lease_owner = j.lease_owner, lease_until = j.lease_until
  FROM delivery_jobs j
 WHERE j.notification_delivery_id = nd.id AND nd.status = 'PENDING';
--> statement-breakpoint
DROP TRIGGER notification_deliveries_enqueue ON notification_deliveries;
--> statement-breakpoint
DROP TRIGGER notification_deliveries_delete_jobs ON notification_deliveries;
--> statement-breakpoint
DROP TABLE delivery_jobs;
--> statement-breakpoint
DROP INDEX notification_deliveries_pending_idx;
--> statement-breakpoint
CREATE INDEX notification_deliveries_due_idx ON notification_deliveries (next_attempt_at) WHERE status = 'PENDING';
--> statement-breakpoint
-- A statement that inserts pending rows still wakes the workers once, in its own transaction (the
-- NOTIFY is sent when it commits; a rolled-back one sends nothing).
CREATE OR REPLACE FUNCTION wayline_enqueue_notification_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE status = 'PENDING') THEN
    PERFORM pg_notify('wayline_deliveries', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER notification_deliveries_enqueue AFTER INSERT ON notification_deliveries
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION wayline_enqueue_notification_deliveries();
