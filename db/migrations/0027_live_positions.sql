-- The live map's wake-up (docs/driver-site.md#live-map): after a statement that changes where a
-- vehicle is or whether it runs, one NOTIFY wayline_positions names the accounts whose vehicles
-- changed (comma-separated ids), so every process's open map streams of those accounts read them
-- again. Statement-level with transition tables: an ingest write (one statement per batch, several
-- vehicles in a write group) sends one notification, never one per point or per row; PostgreSQL
-- drops a repeat of the same payload within a transaction. A payload that would pass PostgreSQL's
-- 8,000-byte limit becomes '*' (every stream reads again).
CREATE FUNCTION wayline_notify_positions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed text;
BEGIN
  SELECT string_agg(DISTINCT a.account_id::text, ',') INTO changed
    FROM after_rows a JOIN before_rows b ON b.id = a.id
    WHERE a.last_latitude IS DISTINCT FROM b.last_latitude
       OR a.last_longitude IS DISTINCT FROM b.last_longitude
       OR a.last_waypoint_at IS DISTINCT FROM b.last_waypoint_at
       OR a.running IS DISTINCT FROM b.running;
  IF changed IS NOT NULL THEN
    PERFORM pg_notify('wayline_positions', CASE WHEN length(changed) > 7000 THEN '*' ELSE changed END);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER vehicles_notify_positions AFTER UPDATE ON vehicles
  REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
  FOR EACH STATEMENT EXECUTE FUNCTION wayline_notify_positions();
