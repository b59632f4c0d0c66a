// @module-tag embedded
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { FreshDatabase } from "@/test/helpers/fresh-database";
import {
  migrations,
  migrationsTo,
  openMigrationTarget,
  releaseMigrationTarget,
  type MigrationTarget,
} from "@/test/helpers/migration-target";

// Migration 0034 (server/delivery/queue.ts): the queue's entries (delivery_jobs) move onto the
// pending rows they stood for. A database made by the migrations up to 0033, with pending rows in
// every state the queue had (new, retrying, leased by a worker, and one that had lost its entry),
// and settled ones, is migrated on: each pending row keeps its schedule and lease, a row without an
// entry is due, and the settled rows are left as they were.

describe("migration 0034 on a database whose queue is delivery_jobs", () => {
  let target: MigrationTarget;
  let fresh: FreshDatabase | null;
  let folder: string;

  beforeAll(async () => {
    ({ target, fresh } = await openMigrationTarget("queue_migration"));
    folder = migrationsTo(33);
    await target.migrate(folder);
    for (const statement of [
      sql`insert into partner_apps (name) values ('Queue migration')`,
      sql`insert into accounts (first_name, last_name, username, password_hash, environment)
          values ('Old', 'Queue', 'queue-migration', 'x', 'sandbox')`,
      sql`insert into subscriptions (type, scope, notification_period, environment, app_id, client_id, account_id)
          select 'IGNITION_ON', 'ACCOUNT', 'NONE', 'sandbox', a.id, 'client', c.id from partner_apps a, accounts c`,
      sql`insert into subscription_deliveries (position, type, subscription_id) select 0, 'HTTP_POST', id from subscriptions`,
      sql`insert into notifications (body, environment, subscription_id, app_id, type, event_at)
          select '{}', 'sandbox', s.id, s.app_id, 'IGNITION_ON', now() from subscriptions s cross join generate_series(1, 6)`,
      // Six rows: the enqueue trigger gives the pending ones their entries.
      sql`insert into notification_deliveries (notification_id, delivery_id, status)
          select n.id, d.id, case when n.id % 6 = 5 then 'DELIVERED' when n.id % 6 = 0 then 'FAILED' else 'PENDING' end
            from notifications n, subscription_deliveries d order by n.id`,
      // Row 2 retrying, row 3 in a worker's hands, row 4's entry lost.
      sql`update delivery_jobs set attempts = 3, next_attempt_at = '2031-01-02T03:04:05Z', failing_since = '2031-01-01T00:00:00Z'
           where notification_delivery_id = 2`,
      sql`update delivery_jobs set lease_owner = 'host:42:abcdef', lease_until = '2031-01-01T00:01:00Z' where notification_delivery_id = 3`,
      sql`delete from delivery_jobs where notification_delivery_id = 4`,
    ])
      await target.run(statement);
    expect((await target.run(sql`select count(*)::int as n from delivery_jobs`))[0]).toEqual({ n: 3 });
    await target.migrate(migrations);
  }, 240_000);

  afterAll(() => releaseMigrationTarget(target, fresh, folder));

  test("each pending row keeps its entry's schedule and lease; a row without one is due; settled rows stay as they were", async () => {
    const rows = await target.run(sql`
      select id::int, status, attempts, next_attempt_at <= now() as due,
             to_char(next_attempt_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as next_attempt_at,
             to_char(failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as failing_since,
             lease_owner, to_char(lease_until at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as lease_until
        from notification_deliveries order by id`);
    const due = { attempts: 0, due: true, failing_since: null, lease_owner: null, lease_until: null };
    expect(rows.map(({ next_attempt_at, ...row }) => (row.id === 2 ? { ...row, next_attempt_at } : row))).toEqual([
      { id: 1, status: "PENDING", ...due },
      {
        id: 2,
        status: "PENDING",
        attempts: 3,
        due: false,
        next_attempt_at: "2031-01-02T03:04:05",
        failing_since: "2031-01-01T00:00:00",
        lease_owner: null,
        lease_until: null,
      },
      { id: 3, status: "PENDING", ...due, lease_owner: "host:42:abcdef", lease_until: "2031-01-01T00:01:00" },
      { id: 4, status: "PENDING", ...due },
      { id: 5, status: "DELIVERED", ...due },
      { id: 6, status: "FAILED", ...due },
    ]);
    const [left] = await target.run(sql`select to_regclass('delivery_jobs') is null as gone`);
    expect(left).toEqual({ gone: true });
  });
});
