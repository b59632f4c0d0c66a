import type { Fragment, Sql } from "@/db/fragments";

/**
 * The condition that keeps a read of a data set's points (alias `p`) within its set's span (alias
 * `s`: data_sets.points_from, points_to, written by ingest). Reached through their set, points say
 * nothing of their time, so without it each set is one index probe per month of data_points; with
 * it PostgreSQL prunes the probe, as it runs, to the months the span covers (docs/partitions.md
 * #pruning-the-hot-reads-plans). A set whose span is not known (null: written before migration 0029,
 * or by a writer other than ingest) is read from every month.
 */
export const pointsWithin = (sql: Sql): Fragment =>
  sql`p.recorded_at >= coalesce(s.points_from, '-infinity') and p.recorded_at <= coalesce(s.points_to, 'infinity')`;
