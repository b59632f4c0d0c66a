import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { recordBatch } from "@/server/delivery/attempts";
import { revokeAppAuthorization } from "@/server/grants/revocation";
import { api, clientToken, createDriver, testSql } from "@/test/helpers/api";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { addVehicle, apps } from "@/test/helpers/fixtures";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// The queue's lock order (docs/delivery.md#lock-order), between the two transactions a busy app's
// revocation meets: the revocation's cancel, which locks the account's pending rows in id order, and a
// delivery worker recording a batch whose sends ended in another order. The interleaving is arranged
// with a third transaction holding the second row: the revocation takes the first row and waits at the
// second, the worker's recording comes while it waits, and then the third lets go. Recording the
// attempts in the order the sends ended, the worker took the second row and waited for the first: a
// deadlock, which PostgreSQL broke by ending one of the two. With the rows locked in id order the
// worker waits for the revocation, holding nothing, and both commit. (The real modules on the suite's
// PostgreSQL; the embedded database runs one statement at a time, so nothing there waits for a row.)

const sandbox = api("sandbox");
const holder = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });

afterAll(async () => {
  await holder.end();
});

/** Backends of this database waiting for a lock in one of the statements named. */
async function waitingIn(patterns: string[]): Promise<number> {
  const rows = await testSql()<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
     where datname = current_database() and wait_event_type = 'Lock' and query ilike any(${patterns}::text[])`;
  return rows[0]!.n;
}

describe.skipIf(inject("embedded"))("a revocation beside a worker recording a batch", () => {
  it("the worker recording attempts out of id order and the revocation both commit", async () => {
    const app = apps().main.sandbox;
    const driver = await createDriver("sandbox", app);
    const client = await clientToken(app);
    const vehicle = await addVehicle("sandbox", driver.accessToken);
    const sub = await sandbox.post(
      `/vehicle/${vehicle.vehicleId}/eventSubscription/WAYPOINT/`,
      { postUrl: "https://hooks.partner.example/lock-order" },
      client,
    );
    expect(sub.status, sub.text).toBe(200);
    for (let i = 0; i < 2; i++) {
      const posted = await sandbox.post(
        `/vehicle/${vehicle.vehicleId}/dataSet/`,
        dataSet(new Date(Date.now() - 60_000 + i * 1000), "RUNNING", [waypoint(39.96, -82.99 + i / 100)]),
        driver.accessToken,
      );
      expect(posted.status, posted.text).toBe(200);
    }
    const sql = testSql();
    // The suite's service runs without a worker: both rows stay pending.
    const rows = await sql<{ id: string; notification_id: string; delivery_id: number; app_id: number }[]>`
      select nd.id, nd.notification_id, nd.delivery_id, n.app_id from notification_deliveries nd
        join notifications n on n.id = nd.notification_id
       where n.subscription_id = ${sub.body.subscription.id} and nd.status = 'PENDING' order by nd.id`;
    expect(rows).toHaveLength(2);
    const [first, second] = rows.map((r) => ({
      id: Number(r.id),
      notificationId: Number(r.notification_id),
      deliveryId: r.delivery_id,
    }));

    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const third = holder.begin(async (tx) => {
      await tx`select id from notification_deliveries where id = ${second!.id} for key share`;
      holding();
      await held;
    });
    await holds;

    const revoking = revokeAppAuthorization({
      environment: "sandbox",
      accountId: driver.account.id,
      appId: rows[0]!.app_id,
    });
    await waitFor(async () => (await waitingIn(["%for update of nd%"])) === 1, { what: "the revocation waiting" });

    const at = new Date();
    const attempt = (row: typeof first) => ({
      notificationDeliveryId: row!.id,
      notificationId: row!.notificationId,
      deliveryId: row!.deliveryId,
      attemptedAt: at,
      target: "https://hooks.partner.example/lock-order",
      outcome: "RETRY" as const,
      httpStatus: 500,
      latencyMs: 12,
      error: null,
      responseExcerpt: null,
      signedContent: null,
      signature: null,
    });
    const retry = (row: typeof first) => ({
      id: row!.id,
      kind: "retry" as const,
      at: new Date(at.getTime() + 60_000),
      attempts: 1,
      failingSince: at,
    });
    // The second row's send ended first.
    const recording = recordBatch({
      attempts: [attempt(second), attempt(first)],
      results: [retry(second), retry(first)],
      httpStatuses: new Map(),
      outbox: [],
      workerId: "lock-order-test",
    });
    await waitFor(
      async () =>
        (await waitingIn(["%for update of nd%", "%insert into delivery_attempts%", "%for no key update%"])) === 2,
      { what: "the worker's recording waiting too" },
    );
    letGo();
    await third;

    const [revoked, recorded] = await Promise.allSettled([revoking, recording]);
    expect(revoked.status === "fulfilled" ? "committed" : String(revoked.reason)).toBe("committed");
    expect(recorded.status === "fulfilled" ? "committed" : String(recorded.reason)).toBe("committed");
    // The revocation failed both rows; the worker's attempts are recorded, and its retries did not
    // bring the rows back.
    const after = await sql<{ status: string; attempts: number }[]>`
      select nd.status, (select count(*)::int from delivery_attempts a where a.notification_delivery_id = nd.id) as attempts
        from notification_deliveries nd where nd.id = any(${[first!.id, second!.id]}::bigint[]) order by nd.id`;
    expect(after).toEqual([
      { status: "FAILED", attempts: 1 },
      { status: "FAILED", attempts: 1 },
    ]);
  });
});
