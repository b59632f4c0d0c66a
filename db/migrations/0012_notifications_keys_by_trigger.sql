ALTER TABLE "notification_deliveries" DROP CONSTRAINT "notification_deliveries_notification_id_notifications_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_subscription_id_subscriptions_id_fk";
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_account_id_accounts_id_fk";
--> statement-breakpoint
-- What the dropped keys cascaded, now once per statement (db/schema/subscriptions.ts says why):
-- the rows of table TG_ARGV[0] whose column TG_ARGV[1] names a deleted row go with it. Statement
-- triggers fire for the deletes that other keys cascade too (an account's subscriptions).
CREATE FUNCTION wayline_delete_dependents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('DELETE FROM %I WHERE %I IN (SELECT id FROM gone)', TG_ARGV[0], TG_ARGV[1]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER subscriptions_delete_notifications AFTER DELETE ON subscriptions
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_dependents('notifications', 'subscription_id');
--> statement-breakpoint
CREATE TRIGGER accounts_delete_notifications AFTER DELETE ON accounts
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_dependents('notifications', 'account_id');
--> statement-breakpoint
CREATE TRIGGER notifications_delete_deliveries AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION wayline_delete_dependents('notification_deliveries', 'notification_id');
