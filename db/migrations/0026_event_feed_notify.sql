-- The event stream's wake-up (docs/event-feed.md#the-stream): every statement that inserts
-- notifications sends one NOTIFY wayline_events, delivered when its transaction commits, whose
-- payload is the writer's transaction id and the apps and accounts the rows belong to:
-- "<xid8> <app>:<account>,<app>:<account>…" (no account: "<app>:"). Each process LISTENs once
-- (server/platform/fleet/notify-listener.ts) and wakes the streams of those apps (a user token's
-- stream: of that account only), which then read the feed from their last cursor. Test
-- notifications are not in the feed and wake no one. A payload that would be too long for NOTIFY
-- (8000 bytes) names no one ("*"): every stream reads once.
CREATE OR REPLACE FUNCTION wayline_notify_feed_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  apps text;
BEGIN
  SELECT string_agg(DISTINCT app_id::text || ':' || coalesce(account_id::text, ''), ',') INTO apps
    FROM inserted WHERE NOT test;
  IF apps IS NOT NULL THEN
    PERFORM pg_notify('wayline_events',
      pg_current_xact_id()::text || ' ' || CASE WHEN length(apps) > 7000 THEN '*' ELSE apps END);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER notifications_feed_notify AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION wayline_notify_feed_events();
