import { count, eq, sql } from "drizzle-orm";
import { Gauge, Registry } from "prom-client";
import { canPrepare, db } from "@/db/client";
import { checkReplica } from "@/db/replica";
import { simulationRuns } from "@/db/schema";

// Figures read from the database when /metrics is scraped: the same for every process, so the
// answering process reads them once (they are not summed over the cluster). Each is a cheap
// indexed read of few rows: pending deliveries use the partial indexes on the PENDING rows
// (notification_deliveries_pending_by_delivery_idx, _due_idx), active runs simulation_runs_due_idx.

export async function databaseMetrics(): Promise<string> {
  // Four counts in one round trip: drizzle's builder has no word for scalar subqueries side by side.
  const [queue] = await db().execute<{ pending: number; due: number; leased: number; oldest: number | null }>(sql`
    select (select count(*)::int from notification_deliveries where status = 'PENDING') as pending,
           (select count(*)::int from notification_deliveries where status = 'PENDING' and next_attempt_at <= now() and lease_until is null) as due,
           (select count(*)::int from notification_deliveries where status = 'PENDING' and lease_until >= now()) as leased,
           (select extract(epoch from now() - min(created_at))::float8 from notification_deliveries where status = 'PENDING') as oldest`);
  const [runs] = await db()
    .select({ active: count() })
    .from(simulationRuns)
    .where(eq(simulationRuns.status, "running"));
  // Connections of every Wayline process (application_name "wayline"), as PostgreSQL sees them:
  // "active" ones are running a statement (the pools in use), "idle" ones wait in a pool. The
  // embedded database has one session and no such view.
  const connections = canPrepare()
    ? await db().execute<{ state: string; n: number }>(sql`
        select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
         where application_name = 'wayline' and pid <> pg_backend_pid() group by 1`)
    : [];

  const registry = new Registry();
  const registers = [registry];
  const depth = new Gauge({
    name: "wayline_delivery_queue_depth",
    help: "Notification deliveries not yet settled, by state: pending (all), due (waiting for a worker now), leased (being sent).",
    labelNames: ["state"] as const,
    registers,
  });
  depth.set({ state: "pending" }, queue?.pending ?? 0);
  depth.set({ state: "due" }, queue?.due ?? 0);
  depth.set({ state: "leased" }, queue?.leased ?? 0);
  new Gauge({
    name: "wayline_delivery_oldest_pending_age_seconds",
    help: "Age of the oldest notification delivery still pending (0 when none is).",
    registers,
  }).set(queue?.oldest ?? 0);
  new Gauge({
    name: "wayline_simulator_runs_active",
    help: "Real-time and other simulation runs currently running.",
    registers,
  }).set(runs?.active ?? 0);
  const pool = new Gauge({
    name: "wayline_db_connections",
    help: "Database connections of all Wayline processes by state (active: in use by a statement; idle: waiting in a pool). PostgreSQL only.",
    labelNames: ["state"] as const,
    registers,
  });
  for (const row of connections) pool.set({ state: row.state }, row.n);
  // The replica as measured now (db/replica.ts): absent without DATABASE_REPLICA_URL.
  const replica = await checkReplica();
  if (replica.configured) {
    new Gauge({
      name: "wayline_replica_up",
      help: "1 when the read replica answers as a replica, 0 when it does not (reads then go to the primary).",
      registers,
    }).set(replica.state === "unreachable" ? 0 : 1);
    const lag = new Gauge({
      name: "wayline_replica_lag_seconds",
      help: "How far the read replica is behind the primary (0: it has replayed all the primary had written). Absent while it does not answer.",
      registers,
    });
    if (replica.lagSeconds !== null && Number.isFinite(replica.lagSeconds)) lag.set(replica.lagSeconds);
  }
  return registry.metrics();
}
