-- The delivery queue is delivery_jobs alone (server/delivery/queue.ts): one row per PENDING
-- notification_deliveries row, holding its schedule (next_attempt_at) and its lease. Workers
-- claim due rows with FOR UPDATE SKIP LOCKED and are woken by NOTIFY wayline_deliveries.
-- graphile-worker's jobs and the sweeper that re-queued stranded rows are gone.
--
-- The trigger now writes the rows' queue entries in the inserting transaction (a committed
-- notification always has its entry) and wakes the workers once per statement.
CREATE OR REPLACE FUNCTION wayline_enqueue_notification_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_jobs (notification_delivery_id)
    SELECT id FROM inserted WHERE status = 'PENDING'
    ON CONFLICT (notification_delivery_id) DO NOTHING;
  IF FOUND THEN
    PERFORM pg_notify('wayline_deliveries', '');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Rows queued by graphile-worker jobs before this migration (never claimed yet) get their entry.
INSERT INTO delivery_jobs (notification_delivery_id)
  SELECT nd.id FROM notification_deliveries nd
  WHERE nd.status = 'PENDING' AND NOT EXISTS (SELECT 1 FROM delivery_jobs j WHERE j.notification_delivery_id = nd.id)
  ON CONFLICT (notification_delivery_id) DO NOTHING;
--> statement-breakpoint
-- Entries of rows already settled (a crash between send and record left none in normal operation).
DELETE FROM delivery_jobs j USING notification_deliveries nd WHERE nd.id = j.notification_delivery_id AND nd.status <> 'PENDING';
--> statement-breakpoint
DROP SCHEMA IF EXISTS graphile_worker CASCADE;
