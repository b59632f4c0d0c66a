-- The pending deliveries' two foreign keys, as statement triggers (as migration 0012 did for the
-- notifications' keys): a key checks every inserted row, and a subscribed batch of 500 data sets
-- writes about 500 pending deliveries and as many queue entries. Measured on 520 rows: the insert
-- took 8.4 ms with the two keys and the queue's upsert, 3.8 ms without them (docs/benchmarks.md).
-- Their rows are made only by enqueueDeliveries (server/notifications/pending-deliveries.ts), which
-- reads the deliveries it names FOR KEY SHARE, the lock a key's check takes; queue entries only by
-- the enqueue trigger below, from the rows just inserted, and by a resend, for rows it holds FOR
-- UPDATE (server/delivery/resend.ts): what they name exists. What the keys cascaded is now done once
-- per statement, by wayline_delete_dependents (migration 0012): a delivery removed takes its
-- pending rows, a pending row removed takes its queue entry.
ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_delivery_id_subscription_deliveries_id_";
--> statement-breakpoint
ALTER TABLE "delivery_jobs" DROP CONSTRAINT "delivery_jobs_notification_delivery_id_notification_deliveries_";
--> statement-breakpoint
CREATE TRIGGER subscription_deliveries_delete_pending AFTER DELETE ON subscription_deliveries
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_dependents('notification_deliveries', 'delivery_id');
--> statement-breakpoint
CREATE TRIGGER notification_deliveries_delete_jobs AFTER DELETE ON notification_deliveries
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_dependents('delivery_jobs', 'notification_delivery_id');
--> statement-breakpoint
-- The queue entries of rows this statement inserted: new ids, so a plain insert (the upsert's
-- conflict check cost 0.7 of the 8.1 ms, for a conflict that cannot happen).
CREATE OR REPLACE FUNCTION wayline_enqueue_notification_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO delivery_jobs (notification_delivery_id)
    SELECT id FROM inserted WHERE status = 'PENDING';
  IF FOUND THEN
    PERFORM pg_notify('wayline_deliveries', '');
  END IF;
  RETURN NULL;
END $$;
