// @module-tag embedded
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";

// sql.begin() must own its connection from BEGIN to COMMIT: no other query of the pool may be sent on it
// in between. postgres.js 3 reserved the connection only when BEGIN did not fill the connection's
// pipeline (porsager/postgres#1189): when it did, the connection stayed in the pool with BEGIN sent, the
// transaction failed with UNSAFE_TRANSACTION (an ingest POST answered 500 under load), and the pool's
// next queries could run inside it. Here each round first gives every connection of the pool one query
// in flight, which with max_pipeline 1 fills its pipeline, and then opens transactions among more plain
// queries, so BEGIN is sent where a pipeline is full; the service's pools (max_pipeline 100) reach that
// only under load. On the embedded database the same holds through its wire server, whose clients are
// each a connection of their own.

const MAX = 3;
const ROUNDS = 15;
const TRANSACTIONS_PER_ROUND = 2;

type Seen = { xid: string | null; tx: string | null };

describe("sql.begin() on a pool whose pipelines are full", () => {
  const sql = postgres(inject("databaseUrl"), {
    max: MAX,
    max_pipeline: 1,
    prepare: !inject("embedded"),
    fetch_types: false,
    onnotice: () => {},
  } as postgres.Options<Record<string, never>>);
  afterAll(() => sql.end({ timeout: 5 }));

  it("keeps each transaction's connection to itself: no UNSAFE_TRANSACTION, no query of the pool inside it", async () => {
    // A plain query reports whether it ran inside a transaction that had done anything: one with an
    // xid, or with the marker every transaction sets first. Sent at once (.execute()), not when awaited.
    const plain = () =>
      sql<Seen[]>`
        select pg_current_xact_id_if_assigned()::text as xid, nullif(current_setting('wayline.tx', true), '') as tx`
        .execute()
        .then((rows) => rows[0]!);
    const transaction = (name: string) =>
      sql.begin(async (tx) => {
        await tx`select set_config('wayline.tx', ${name}, true), pg_current_xact_id()`;
        const inside: Seen[] = [];
        for (let step = 0; step < 3; step++) {
          const [row] = await tx<Seen[]>`
            select pg_current_xact_id_if_assigned()::text as xid, current_setting('wayline.tx', true) as tx`;
          inside.push(row!);
        }
        return { name, inside };
      });

    const failures: string[] = [];
    const outside: Seen[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const plains: Promise<Seen>[] = [];
      const transactions: ReturnType<typeof transaction>[] = [];
      for (let p = 0; p < MAX; p++) plains.push(plain());
      for (let t = 0; t < TRANSACTIONS_PER_ROUND; t++) {
        transactions.push(transaction(`${round}.${t}`));
        plains.push(plain());
      }
      for (const settled of await Promise.allSettled(transactions)) {
        if (settled.status === "rejected") {
          failures.push(String(settled.reason));
          continue;
        }
        // Each transaction saw its own marker and one xid throughout.
        const { name, inside } = settled.value;
        expect(inside.map((row) => row.tx)).toEqual([name, name, name]);
        expect(inside[0]!.xid).not.toBeNull();
        expect(new Set(inside.map((row) => row.xid)).size).toBe(1);
      }
      outside.push(...(await Promise.all(plains)));
    }

    expect(failures).toEqual([]);
    expect(outside.filter((row) => row.xid !== null || row.tx !== null)).toEqual([]);
    expect(outside).toHaveLength(ROUNDS * (MAX + TRANSACTIONS_PER_ROUND));
  });
});
