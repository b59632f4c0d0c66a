-- The delivery queue's feed (server/delivery/queue.ts). Ingest writes notification_deliveries in
-- batches; one statement-level trigger turns each inserted batch into graphile-worker jobs of at
-- most 100 rows each (never one job per row), in the same transaction as the rows, so no
-- notification can be committed without its job. graphile_worker.add_jobs is resolved when the
-- trigger runs: its schema is installed by db/migrate.ts right after these migrations.
CREATE FUNCTION wayline_enqueue_notification_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM graphile_worker.add_jobs(array(
    SELECT ('deliver', json_build_object('ids', ids), NULL, NULL, 25, NULL, NULL, NULL)::graphile_worker.job_spec
    FROM (SELECT array_agg(id ORDER BY id) AS ids
          FROM (SELECT id, (row_number() OVER (ORDER BY id) - 1) / 100 AS chunk FROM inserted) numbered
          GROUP BY chunk) chunks
  ))
  WHERE EXISTS (SELECT 1 FROM inserted);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER notification_deliveries_enqueue AFTER INSERT ON notification_deliveries
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION wayline_enqueue_notification_deliveries();
--> statement-breakpoint
-- The sweeper's ways in: rows still PENDING (few at any time), leases that ran out, retries overdue.
CREATE INDEX notification_deliveries_pending_idx ON notification_deliveries (created_at) WHERE status = 'PENDING';
--> statement-breakpoint
CREATE INDEX delivery_jobs_lease_idx ON delivery_jobs (lease_until) WHERE lease_until IS NOT NULL;
--> statement-breakpoint
CREATE INDEX delivery_jobs_next_idx ON delivery_jobs (next_attempt_at) WHERE lease_until IS NULL;
