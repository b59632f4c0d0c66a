import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { deadlockDetected, retryingDeadlocks } from "@/db/errors";
import { uniqueName } from "@/test/helpers/api";

// retryingDeadlocks (db/errors.ts), which keeps an account's deletion from answering 500 when it
// deadlocks with a delivery worker, against a real deadlock: two transactions that update the same
// two rows in opposite orders. The one with the shorter deadlock_timeout runs PostgreSQL's deadlock
// check first and is the one ended (40P01); tried again, it passes once the other has committed. (PostgreSQL
// only: the embedded database runs one statement at a time, so two of its transactions never wait
// for each other's row locks.)

const table = uniqueName("deadlock").replace(/\W/g, "_").toLowerCase();
let a: postgres.Sql;
let b: postgres.Sql;

describe.skipIf(inject("embedded"))("retryingDeadlocks", () => {
  beforeAll(async () => {
    a = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
    b = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
    await a`create table ${a(table)} (id int primary key, v int not null)`;
    await a`insert into ${a(table)} values (1, 0), (2, 0)`;
  });

  afterAll(async () => {
    await a`drop table if exists ${a(table)}`;
    await Promise.all([a?.end(), b?.end()]);
  });

  it("a transaction ended to break a deadlock is run again and commits; the other commits too", async () => {
    let tries = 0;
    const errors: unknown[] = [];
    let bHolds!: () => void;
    const bHasRow2 = new Promise<void>((resolve) => (bHolds = resolve));
    let aHolds!: () => void;
    const aHasRow1 = new Promise<void>((resolve) => (aHolds = resolve));

    const first = retryingDeadlocks(async () => {
      tries += 1;
      try {
        return await a.begin(async (tx) => {
          await tx`set local deadlock_timeout = '100ms'`;
          await tx`update ${tx(table)} set v = v + 1 where id = 1`;
          if (tries === 1) {
            aHolds();
            await bHasRow2;
          }
          await tx`update ${tx(table)} set v = v + 1 where id = 2`;
          return tries;
        });
      } catch (error) {
        errors.push(error);
        throw error;
      }
    });
    const second = b.begin(async (tx) => {
      await tx`set local deadlock_timeout = '5s'`;
      await aHasRow1;
      await tx`update ${tx(table)} set v = v + 10 where id = 2`;
      bHolds();
      // Both now wait for each other; A's deadlock check (after 100 ms) runs long before B's (5 s).
      await tx`update ${tx(table)} set v = v + 10 where id = 1`;
    });

    expect(await first).toBe(2);
    await second;
    expect(errors).toHaveLength(1);
    expect(deadlockDetected(errors[0])).toBe(true);
    const rows = await a<{ id: number; v: number }[]>`select id, v from ${a(table)} order by id`;
    expect(rows).toEqual([
      { id: 1, v: 11 },
      { id: 2, v: 11 },
    ]);
  });

  it("any other error is thrown at once, without a second try", async () => {
    let tries = 0;
    await expect(
      retryingDeadlocks(async () => {
        tries += 1;
        return a`select 1 / 0`;
      }),
    ).rejects.toThrow(/division by zero/);
    expect(tries).toBe(1);
  });
});
