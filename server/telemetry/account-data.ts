import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { db, type Tx } from "@/db/client";
import { dataCursors, dataPoints, vehicleDataStats, vehicles } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import type { LocationPrecision } from "@/server/oauth/grant-scope";
import { serializePoint } from "./serialize";

// GET /account/data/: the data points of all of an account's vehicles.
//
// sinceLastCall=true returns the points stored since this app's previous call for this account
// (the first call returns none and sets the cursor). The cursor is (transaction id, point id),
// and only points of transactions older than every transaction still running are handed out:
// a cursor on ids alone would skip, for good, the points of an ingest that took id 100 but
// committed after another's id 101 had been read.

type PointRow = {
  id: string;
  vehicle_id: number;
  data_set_id: string;
  recorded_at: string;
  key: string;
  value: string;
  tx_id: string;
};

export async function pointsSinceLastCall({
  appId,
  accountId,
  limit,
  precision,
}: {
  appId: number;
  accountId: number;
  limit: number;
  precision: LocationPrecision;
}) {
  return db().transaction(async (tx) => {
    const [cursor] = await tx
      .select({ txId: dataCursors.txId, pointId: dataCursors.pointId })
      .from(dataCursors)
      .where(and(eq(dataCursors.appId, appId), eq(dataCursors.accountId, accountId)))
      .for("update");

    if (!cursor) {
      // The first call starts after everything already committed, not at the safe horizon: the
      // next call must not hand out points stored before this one (docs/device-data.md#reading). Only an ingest
      // still running at this very first call could fall behind the cursor.
      const [last] = await rows<{ tx_id: string; id: string }>(
        tx,
        sql`select p.tx_id::text, p.id::text from data_points p where p.vehicle_id in (select id from vehicles where account_id = ${accountId}) order by p.tx_id desc, p.id desc limit 1`,
      );
      // A concurrent first call may have set it meanwhile: either cursor starts after what had committed.
      await tx
        .insert(dataCursors)
        .values({ appId, accountId, txId: last?.tx_id ?? "0", pointId: Number(last?.id ?? 0) })
        .onConflictDoNothing();
      return [];
    }

    const points = await rows<PointRow>(
      tx,
      sql`
      select p.id::text, p.vehicle_id, p.data_set_id::text, (extract(epoch from p.recorded_at) * 1000)::float8 as recorded_at, p.key, p.value, p.tx_id::text
        from data_points p
       where p.vehicle_id in (select id from vehicles where account_id = ${accountId}) and p.tx_id < pg_snapshot_xmin(pg_current_snapshot())
         and (p.tx_id, p.id) > (${cursor.txId}::xid8, ${cursor.pointId}::bigint)
       order by p.tx_id, p.id limit ${limit}`,
    );
    const last = points.at(-1);
    if (last)
      await tx
        .update(dataCursors)
        .set({ txId: last.tx_id, pointId: Number(last.id), updatedAt: sql`now()` })
        .where(and(eq(dataCursors.appId, appId), eq(dataCursors.accountId, accountId)));
    return points.map((r) => ({
      vehicleId: r.vehicle_id,
      ...serializePoint(
        {
          id: Number(r.id),
          dataSetId: Number(r.data_set_id),
          recordedAt: new Date(Number(r.recorded_at)),
          key: r.key,
          value: r.value,
        },
        precision,
      ),
    }));
  });
}

// Statements on xid8 and the snapshot horizon, which the builder has no words for; the rows come
// back as postgres.js returns them (int8 and xid8 cast to text, times as epoch ms).
const rows = async <T>(tx: Tx, statement: SQL): Promise<T[]> => (await tx.execute(statement)) as unknown as T[];

/** Without sinceLastCall: the account's points, newest first, paged. */
export async function accountPoints({
  accountId,
  page,
  precision,
}: {
  accountId: number;
  page: Page;
  precision: LocationPrecision;
}) {
  const ofAccount = db().select({ id: vehicles.id }).from(vehicles).where(eq(vehicles.accountId, accountId));
  const [rows, [total]] = await Promise.all([
    db()
      .select()
      .from(dataPoints)
      .where(inArray(dataPoints.vehicleId, ofAccount))
      .orderBy(desc(dataPoints.recordedAt), desc(dataPoints.id))
      .limit(page.limit)
      .offset(page.offset),
    db()
      .select({ n: sql<number>`coalesce(sum(${vehicleDataStats.dataPoints}), 0)::int` })
      .from(vehicleDataStats)
      .where(and(inArray(vehicleDataStats.vehicleId, ofAccount))),
  ]);
  return {
    items: rows.map((r) => ({ vehicleId: r.vehicleId, ...serializePoint(r, precision) })),
    total: total?.n ?? 0,
  };
}
