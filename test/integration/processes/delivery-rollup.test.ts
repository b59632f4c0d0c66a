// @module-tag embedded
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/db/schema";
import { seriesFigures, windowFigures } from "@/server/surfaces/console/health-queries";
import { percentileOf } from "@/common/delivery/latency-histogram";
import {
  createSubscription,
  deliveryDatabase,
  insertNotifications,
  seedApp,
  startWorkerProcess,
  stopWorkerProcess,
  waitFor,
  type DeliveryDb,
  type WorkerProcess,
} from "@/test/helpers/delivery-fixture";
import { root } from "@/test/helpers/processes";
import { startHttpsReceiver, type HttpsReceiver } from "@/test/helpers/https-receiver";

// The delivery health rollup (delivery_attempt_rollups) after real deliveries by two worker
// processes at once, to receivers that answer 200, 500 and 503 with varied delays: every row must
// equal what rolling up delivery_attempts afresh gives (the backfill migration, in a transaction
// rolled back), and the health reads must give the figures a direct computation over
// delivery_attempts gives (counts and failures equal; p50/p95 within 5 % of percentile_disc).

/** Carries rows out of a transaction that must roll back. */
class Rolled extends Error {
  constructor(readonly rows: unknown[]) {
    super("rolled back");
  }
}

let db: DeliveryDb;
let workers: WorkerProcess[] = [];
let receiver: HttpsReceiver;
let app: { appId: number; signingSecret: string; clientId: string };

beforeAll(async () => {
  db = await deliveryDatabase("delivery-rollup");
  // app:create migrates the fresh database first: two workers starting at once on an empty embedded
  // database would both wait on the one migrating it, and the other's connection timed out (10 s) at
  // load 16.
  app = await seedApp(db);
  workers = [startWorkerProcess(db.workerEnv()), startWorkerProcess(db.workerEnv())];
  await Promise.all(workers.map((w) => w.ready));
  receiver = await startHttpsReceiver({ ca: db.ca });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => stopWorkerProcess(w)));
  await receiver?.close();
  await db?.close();
});

/** The migration that fills the rollup from the attempts already recorded. */
const backfill = path.join(root, "db/migrations/0021_delivery_attempt_rollups_backfill.sql");

describe("delivery health rollup", () => {
  it("after two workers' concurrent deliveries with failures and retries, the rollup equals the attempts rolled up afresh and the health reads equal a direct computation", async () => {
    for (const hook of ["/hook/a", "/hook/b"]) {
      let n = 0;
      const failuresOf = new Map<string, number>();
      // Every 4th request a 500, every 7th a 503 (retried until delivered), delays 0–60 ms. A
      // webhook fails at most 3 times: its retries then come 5 ms, 300 ms and 1.8 s apart (the
      // schedule at DELIVERY_RETRY_SCALE 0.001), where a 5th and 6th failure would add 18 s and
      // 36 s of waiting to the file and nothing to what it checks.
      receiver.route(hook, (req) => {
        n += 1;
        const id = req.headers["webhook-id"] ?? "";
        const failed = failuresOf.get(id) ?? 0;
        const status = failed >= 3 ? 200 : n % 4 === 0 ? 500 : n % 7 === 0 ? 503 : 200;
        if (status !== 200) failuresOf.set(id, failed + 1);
        return { status, delayMs: (n * 13) % 61 };
      });
    }
    const sub = await createSubscription(db.sql, {
      appId: app.appId,
      clientId: app.clientId,
      deliveries: [
        { type: "HTTP_POST", postUrl: `${receiver.url}/hook/a` },
        { type: "HTTP_POST", postUrl: `${receiver.url}/hook/b` },
      ],
    });
    await insertNotifications(db.sql, {
      appId: app.appId,
      clientId: app.clientId,
      subscriptionId: sub.subscriptionId,
      deliveryIds: sub.deliveryIds,
      count: 120,
    });
    await waitFor(
      async () => {
        const [row] = await db.sql<
          { waiting: number }[]
        >`select count(*)::int as waiting from notification_deliveries where delivery_id in ${db.sql(sub.deliveryIds)} and status <> 'DELIVERED'`;
        return row!.waiting === 0;
      },
      { what: "every row DELIVERED", timeoutMs: 120_000, intervalMs: 250 },
    ).catch(async (error: unknown) => {
      console.error(
        await db.sql`select status, count(*) from notification_deliveries group by 1`,
        await db.sql`select outcome, http_status, error, count(*) from delivery_attempts group by 1, 2, 3`,
        receiver.requests.length,
        workers.map((w) => w.output().slice(-3000)),
      );
      throw error;
    });
    const [{ failed, workers: by } = { failed: 0, workers: 0 }] = await db.sql<{ failed: number; workers: number }[]>`
      select (count(*) filter (where outcome <> 'DELIVERED'))::int as failed, count(distinct worker_id)::int
        as workers from delivery_attempts where delivery_id in ${db.sql(sub.deliveryIds)}`;
    expect(failed).toBeGreaterThan(30);
    // Row by row: delivered once, and at most the 3 failing answers the receiver gives a webhook. A
    // row may also hold failures the receiver never answered (no complete answer within 10 s): a CI
    // run at load 8-9 recorded a 5th attempt on the embedded pass, whose database shares this
    // process with the receiver (that run did not print the attempts' errors; this one says them).
    const perRow = await db.sql<
      { id: string; attempts: number; delivered: number; answered: number; errors: string[] }[]
    >`
      select notification_delivery_id::text as id, count(*)::int as attempts,
             (count(*) filter (where outcome = 'DELIVERED'))::int as delivered,
             (count(*) filter (where outcome <> 'DELIVERED' and http_status is not null))::int as answered,
             coalesce(array_agg(error) filter (where http_status is null and error is not null), '{}') as errors
      from delivery_attempts where delivery_id in ${db.sql(sub.deliveryIds)} group by 1`;
    expect(perRow).toHaveLength(240);
    expect(perRow.filter((r) => r.delivered !== 1 || r.answered > 3)).toEqual([]);
    const unanswered = perRow.flatMap((r) => r.errors);
    if (unanswered.length > 0) console.warn(`failures the receiver did not answer: ${unanswered.join("; ")}`);
    // Some webhooks went through every retry the receiver allows: three levels of the schedule.
    expect(Math.max(...perRow.map((r) => r.attempts))).toBeGreaterThanOrEqual(4);
    expect(by).toBe(2);

    // Row by row, the rollup against the same attempts rolled up afresh by the backfill migration
    // (in a transaction rolled back: the rollup is left as the workers wrote it).
    const rollup = (sql: postgres.Sql | postgres.TransactionSql) =>
      sql`select delivery_id, bucket_seconds, bucket_start, attempts, delivered, failures, latency from
        delivery_attempt_rollups order by delivery_id, bucket_seconds, bucket_start`;
    const incremental = await rollup(db.sql);
    const afresh = await db.sql
      .begin(async (sql) => {
        await sql`delete from delivery_attempt_rollups`;
        await sql.file(backfill);
        throw new Rolled(await rollup(sql));
      })
      .catch((error: unknown) => {
        if (error instanceof Rolled) return error.rows;
        throw error;
      });
    expect(incremental.length).toBeGreaterThan(0);
    expect(incremental).toEqual(afresh);

    // The health reads against a direct computation, per delivery and for both together.
    const reader = drizzle(db.sql, { schema, casing: "snake_case" });
    const since = new Date(Date.now() - 3600_000);
    for (const ids of [[sub.deliveryIds[0]!], [sub.deliveryIds[1]!], sub.deliveryIds]) {
      const [direct] = await db.sql<{ attempts: number; delivered: number; p: [number, number] }[]>`
        select count(*)::int as attempts, (count(*) filter (where outcome = 'DELIVERED'))::int as delivered,
               percentile_disc(array[0.5, 0.95]) within group (order by latency_ms) as p
        from delivery_attempts where delivery_id in ${db.sql(ids)} and attempted_at >= ${since.toISOString()}::timestamptz and outcome <> 'REDIRECTED'`;
      const failures = await db.sql<{ status: string; n: number }[]>`
        select coalesce(http_status::text, 'none') as status, count(*)::int as n from delivery_attempts
        where delivery_id in ${db.sql(ids)} and attempted_at >= ${since.toISOString()}::timestamptz and outcome not in ('REDIRECTED', 'DELIVERED') group by 1`;
      const figures = await windowFigures(reader, { deliveryIds: ids, since });
      expect({
        attempts: figures.attempts,
        delivered: figures.delivered,
        failures: Object.fromEntries(figures.failures),
      }).toEqual({
        attempts: direct!.attempts,
        delivered: direct!.delivered,
        failures: Object.fromEntries(failures.map((f) => [f.status, f.n])),
      });
      for (const [p, exact] of [
        [0.5, direct!.p[0]],
        [0.95, direct!.p[1]],
      ] as const) {
        expect(Math.abs(percentileOf(figures.latency, p)! - exact)).toBeLessThanOrEqual(0.05 * exact + 0.5);
      }
      // The series (from the 5-minute rows, and from the hour rows) add up to the window.
      for (const strideSeconds of [300, 3600]) {
        const series = await seriesFigures(reader, { deliveryIds: ids, since, strideSeconds });
        expect([...series.values()].reduce((s, f) => s + f.attempts, 0)).toBe(direct!.attempts);
      }
    }
  }, 180_000);
});
