import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { db, type Tx } from "@/db/client";
import { dataCursors, vehicleDataStats, vehicles } from "@/db/schema";
import type { Page } from "@/common/http/paging";
import type { LocationPrecision } from "@/common/oauth/grant-scope";
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
        sql`select p.tx_id::text, p.id::text from data_points p
          where p.vehicle_id in (select id from vehicles where account_id = ${accountId})
          order by p.tx_id desc, p.id desc limit 1`,
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
    return points.map((r) => pointOut(r, precision));
  });
}

/** A row of this file's hand-written statements as the API answers it, with its vehicle's id. */
const pointOut = (r: Omit<PointRow, "tx_id">, precision: LocationPrecision) => ({
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
});

// Statements the builder has no words for (xid8 and the snapshot horizon, a LATERAL join); the rows come
// back as postgres.js returns them (int8 and xid8 cast to text, times as epoch ms).
const rows = async <T>(tx: Pick<Tx, "execute">, statement: SQL): Promise<T[]> =>
  (await tx.execute(statement)) as unknown as T[];

/**
 * Without sinceLastCall: the account's points, newest first, paged.
 *
 * Each vehicle's newest `limit + offset` points first (its (vehicle_id, recorded_at, id) index read
 * backwards, in every month partition at once), then the page from those: never more rows than the
 * account holds. Read as `vehicle_id in (the account's vehicles) order by … limit`, PostgreSQL read and
 * sorted every point of the account for any page: at 50 million points, 20 ms for an account of one
 * vehicle with 31,000 points (0.6 ms now) and 7.7 s for one of 1,000 vehicles (0.4 s now), growing
 * with the account's history (docs/benchmarks.md).
 */
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
  const [newest, [total]] = await Promise.all([
    rows<Omit<PointRow, "tx_id">>(
      db(),
      sql`
      select p.id::text, p.vehicle_id, p.data_set_id::text, (extract(epoch from p.recorded_at) * 1000)::float8 as recorded_at, p.key, p.value
        from vehicles v
       cross join lateral (
             select id, vehicle_id, data_set_id, recorded_at, key, value from data_points
              where vehicle_id = v.id order by recorded_at desc, id desc limit ${page.limit + page.offset}) p
       where v.account_id = ${accountId}
       order by p.recorded_at desc, p.id desc limit ${page.limit} offset ${page.offset}`,
    ),
    db()
      .select({ n: sql<number>`coalesce(sum(${vehicleDataStats.dataPoints}), 0)::int` })
      .from(vehicleDataStats)
      .where(and(inArray(vehicleDataStats.vehicleId, ofAccount))),
  ]);
  return {
    items: newest.map((r) => pointOut(r, precision)),
    total: total?.n ?? 0,
  };
}
