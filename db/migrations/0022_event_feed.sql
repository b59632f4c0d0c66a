-- The event feed's order (docs/event-feed.md). The column comes without a default first, so adding it
-- does not rewrite a big notifications table (a volatile default would); new rows get the
-- default, and the rows made before stay null, which the feed reads as '0'.
ALTER TABLE "notifications" ADD COLUMN "tx_id" "xid8";--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "tx_id" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
CREATE INDEX "notifications_feed_idx" ON "notifications" USING btree ("app_id","environment",coalesce("tx_id", '0'::xid8),"id");
