import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { connect, type Connection } from "@/db/client";

// The service's pools (db/client.ts) on PostgreSQL run with JIT off (docs/decisions/0130-no-jit.md): a generic plan
// over months of data passes jit_above_cost, and PostgreSQL then compiled the trip read on every execution.
// The embedded database has no JIT.

/** Whether PostgreSQL compiles a small aggregate when every statement qualifies (jit_above_cost 0). */
async function compiles(sql: postgres.Sql): Promise<boolean> {
  return sql.begin(async (tx) => {
    await tx`set local jit_above_cost = 0`;
    const [row] = await tx<{ "QUERY PLAN": [{ JIT?: unknown }] }[]>`
      explain (analyze, format json) select sum(g) from generate_series(1, 1000) g`;
    return row!["QUERY PLAN"][0].JIT !== undefined;
  });
}

describe.skipIf(inject("embedded"))("the service's database pools", () => {
  let ours: Connection | undefined;
  let plain: postgres.Sql | undefined;
  afterAll(async () => {
    await ours?.sql.end();
    await plain?.end();
  });

  it("run with JIT off, where a connection with PostgreSQL's defaults compiles", async () => {
    ours = connect(inject("databaseUrl"), false, 1);
    plain = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
    const [setting] = await ours.sql<{ jit: string }[]>`show jit`;
    expect(setting!.jit).toBe("off");
    expect(await compiles(ours.sql)).toBe(false);
    // Where the server has a JIT provider (LLVM), the same statement on a default connection is compiled.
    const [available] = await plain<{ on: boolean }[]>`select pg_jit_available() as on`;
    if (available!.on) expect(await compiles(plain)).toBe(true);
  });
});
