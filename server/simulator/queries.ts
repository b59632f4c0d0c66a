import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { simulationRoutes, simulationRuns, type Environment } from "@/db/schema";
import type { Page } from "@/common/http/paging";

// Simulator rows: saved routes and runs. Rules live in service.ts and runner.ts.

export type RunRow = typeof simulationRuns.$inferSelect;
export type NewRun = typeof simulationRuns.$inferInsert;
export type RouteRow = typeof simulationRoutes.$inferSelect;

export async function insertRun(db: Executor, values: NewRun): Promise<RunRow> {
  const [row] = await db.insert(simulationRuns).values(values).returning();
  return row!;
}

export async function findRun(
  db: Executor,
  { vehicleId, id }: { vehicleId: number; id: number },
): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(simulationRuns)
    .where(and(eq(simulationRuns.vehicleId, vehicleId), eq(simulationRuns.id, id)))
    .limit(1);
  return row ?? null;
}

export async function listRuns(
  db: Executor,
  { vehicleId, page, order }: { vehicleId: number; page: Page; order: "asc" | "desc" },
) {
  const by =
    order === "asc"
      ? [asc(simulationRuns.createdAt), asc(simulationRuns.id)]
      : [desc(simulationRuns.createdAt), desc(simulationRuns.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(simulationRuns)
      .where(eq(simulationRuns.vehicleId, vehicleId))
      .orderBy(...by)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(simulationRuns).where(eq(simulationRuns.vehicleId, vehicleId)),
  ]);
  return { rows, total: total!.n };
}

/** The newest runs of several vehicles (the console's list of an app's runs). */
export async function recentRunsOf(
  db: Executor,
  { environment, vehicleIds, limit }: { environment: Environment; vehicleIds: number[]; limit: number },
): Promise<RunRow[]> {
  if (vehicleIds.length === 0) return [];
  return db
    .select()
    .from(simulationRuns)
    .where(and(eq(simulationRuns.environment, environment), inArray(simulationRuns.vehicleId, vehicleIds)))
    .orderBy(desc(simulationRuns.createdAt), desc(simulationRuns.id))
    .limit(limit);
}

/** A run by its id alone; the caller checks that its vehicle is visible. */
export async function findRunById(db: Executor, { id }: { id: number }): Promise<RunRow | null> {
  const [row] = await db.select().from(simulationRuns).where(eq(simulationRuns.id, id)).limit(1);
  return row ?? null;
}

export async function updateRun(
  db: Executor,
  { id, values }: { id: number; values: { [K in keyof NewRun]?: NewRun[K] | SQL } },
): Promise<RunRow | null> {
  const [row] = await db
    .update(simulationRuns)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(simulationRuns.id, id))
    .returning();
  return row ?? null;
}

/**
 * Stops a running run. A real-time run stopped mid-trip keeps park_pending, and the loop posts
 * its OFF data set (it is the only writer of a real-time run's data).
 */
export async function stopRun(
  db: Executor,
  { vehicleId, id, reason }: { vehicleId: number; id: number; reason: string },
): Promise<RunRow | null> {
  const [row] = await db
    .update(simulationRuns)
    .set({
      status: "stopped",
      stopReason: reason,
      endedAt: sql`now()`,
      updatedAt: sql`now()`,
      parkPending: sql`${simulationRuns.mode} = 'realtime' and ${simulationRuns.nextIndex} > 0`,
      nextDueAt: sql`case when ${simulationRuns.mode} = 'realtime' and ${simulationRuns.nextIndex} > 0 then now() else null end`,
    })
    .where(
      and(eq(simulationRuns.vehicleId, vehicleId), eq(simulationRuns.id, id), eq(simulationRuns.status, "running")),
    )
    .returning();
  return row ?? null;
}

export async function findRunningRunOf(db: Executor, { vehicleId }: { vehicleId: number }): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(simulationRuns)
    .where(and(eq(simulationRuns.vehicleId, vehicleId), eq(simulationRuns.status, "running")))
    .limit(1);
  return row ?? null;
}

export async function insertRoute(db: Executor, values: typeof simulationRoutes.$inferInsert): Promise<RouteRow> {
  const [row] = await db.insert(simulationRoutes).values(values).returning();
  return row!;
}

export async function findRoute(
  db: Executor,
  { environment, appId, id }: { environment: Environment; appId: number; id: number },
): Promise<RouteRow | null> {
  const [row] = await db
    .select()
    .from(simulationRoutes)
    .where(
      and(
        eq(simulationRoutes.environment, environment),
        eq(simulationRoutes.appId, appId),
        eq(simulationRoutes.id, id),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function listRoutes(
  db: Executor,
  { environment, appId, page, order }: { environment: Environment; appId: number; page: Page; order: "asc" | "desc" },
) {
  const where = and(eq(simulationRoutes.environment, environment), eq(simulationRoutes.appId, appId));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(simulationRoutes)
      .where(where)
      .orderBy(order === "asc" ? asc(simulationRoutes.id) : desc(simulationRoutes.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(simulationRoutes).where(where),
  ]);
  return { rows, total: total!.n };
}

export async function deleteRoute(
  db: Executor,
  { environment, appId, id }: { environment: Environment; appId: number; id: number },
): Promise<boolean> {
  const rows = await db
    .delete(simulationRoutes)
    .where(
      and(
        eq(simulationRoutes.environment, environment),
        eq(simulationRoutes.appId, appId),
        eq(simulationRoutes.id, id),
      ),
    )
    .returning({ id: simulationRoutes.id });
  return rows.length > 0;
}
