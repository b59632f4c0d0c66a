ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_notification_id_notifications_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_subscription_id_subscriptions_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_account_id_accounts_id_fk";
--> statement-breakpoint
-- What the dropped keys cascaded, now once per statement (db/schema/subscriptions.ts says why).
-- Statement triggers fire for the deletes that other keys cascade too (an account's subscriptions).
CREATE FUNCTION wayline_delete_notifications_of_subscriptions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notifications WHERE subscription_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_delete_notifications AFTER DELETE ON subscriptions
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_notifications_of_subscriptions();
--> statement-breakpoint
CREATE FUNCTION wayline_delete_notifications_of_accounts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notifications WHERE account_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_delete_notifications AFTER DELETE ON accounts
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_notifications_of_accounts();
--> statement-breakpoint
CREATE FUNCTION wayline_delete_deliveries_of_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notification_deliveries WHERE notification_id IN (SELECT id FROM gone);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER notifications_delete_deliveries AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_deliveries_of_notifications();
