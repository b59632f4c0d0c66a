-- The span of a data set's points' times (docs/partitions.md#pruning-the-hot-reads-plans): a point may carry
-- its own timestamp, months from its set's, so reads that reach points through their set (a trip's data, the
-- replay's track) had to probe every month of data_points for each set. Ingest writes the span of the set's
-- own time and its points' times; a read bounds the points by it, and PostgreSQL prunes each set's probe to
-- the months the span covers (one, nearly always). Null is "not known" (a set written before this migration,
-- or by a writer other than ingest): its points are read from every month, as before. No backfill, so the
-- upgrade takes no time however many rows there are.
ALTER TABLE "data_sets" ADD COLUMN "points_from" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "data_sets" ADD COLUMN "points_to" timestamp with time zone;
