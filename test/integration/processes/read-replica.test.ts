import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { request } from "@/test/helpers/api";
import { startOwnPostgres, startOwnReplica, type OwnPostgres, type OwnReplica } from "@/test/helpers/own-postgres";
import { partnerAccount } from "@/test/helpers/partner-account";
import { startApp, runScript, type RunningApp } from "@/test/helpers/processes";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Heavy reads on a read replica (docs/operations.md#read-replicas). A PostgreSQL cluster of the
// test's own is the primary; `pg_basebackup -R` makes a streaming replica of it, a second
// postmaster on another loopback port. The service runs with DATABASE_REPLICA_URL and a lag bound
// of 3 s. Two callers of one app: the driver's token writes (posts data sets), the app's
// client-credentials token reads. With the replica's replay paused, what each sees tells where
// its read ran: the replica does not have the newest data set, the primary does.
// PostgreSQL only: the embedded database has no replicas.

const MAX_LAG_SECONDS = 3;

let primary: OwnPostgres;
let replica: OwnReplica;
let service: RunningApp;

describe.skipIf(inject("embedded"))("a read replica (PostgreSQL only)", () => {
  let api: string;
  let writer: string;
  let reader: string;
  let vehicleId: number;
  let clock = Date.UTC(2026, 0, 1);

  const post = async () => {
    clock += 60_000;
    const res = await request("POST", `${api}/vehicle/${vehicleId}/dataSet/`, {
      token: writer,
      json: dataSet(new Date(clock), "RUNNING", [waypoint(39.96, -83.0)]),
    });
    expect(res.status, res.text).toBe(200);
    return res.body.dataSet.id as number;
  };
  const listed = async (token: string) => {
    const res = await request("GET", `${api}/vehicle/${vehicleId}/dataSet/?searchLimit=100`, { token });
    expect(res.status, res.text).toBe(200);
    return (res.body.dataSet as { id: number }[]).map((s) => s.id);
  };
  const ready = async () => {
    const res = await request("GET", `${service.baseUrl}/api/health/ready`);
    expect(res.status, res.text).toBe(200);
    return res.body.replica as { state: string; lagSeconds: number | null };
  };
  const until = async <T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const value = await probe();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after 20 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const heavyReads = async () => {
    const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
    const count = (target: string) =>
      Number(new RegExp(`^wayline_heavy_reads_total\\{target="${target}"\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
    return { replica: count("replica"), primary: count("primary"), up: /^wayline_replica_up 1$/m.test(text) };
  };

  beforeAll(async () => {
    primary = await startOwnPostgres("replica-primary");
    replica = await startOwnReplica("replica", primary);
    service = await startApp({
      name: "read-replica",
      databaseUrl: primary.url,
      extraEnv: {
        DATABASE_REPLICA_URL: replica.url,
        REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
        WORKER: "off",
        SIMULATOR: "0",
        WEB_CONCURRENCY: "1",
      },
    });
    const app = JSON.parse(
      (
        await runScript(
          "app-create.ts",
          ["--name", "Read replica", "--redirect-uri", "https://partner.example/callback", "--json"],
          service.env,
        )
      ).stdout,
    );
    const account = await partnerAccount({ app: service, partnerApp: app });
    api = `${service.baseUrl}/sandbox/api`;
    writer = account.token;
    reader = account.clientToken;
    const vehicle = await request("POST", `${api}/vehicle/`, { token: writer, json: { label: "Replica car" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    vehicleId = vehicle.body.vehicle.vehicleId as number;
    // The reader made the account above, a write: its reads stay on the primary for the bound
    // and a second more. Let that pass, so its reads below are free to go to the replica.
    await new Promise((resolve) => setTimeout(resolve, (MAX_LAG_SECONDS + 1) * 1000));
  }, 180_000);

  afterAll(async () => {
    await service?.stop();
    await replica?.remove();
    await primary?.remove();
  });

  test("heavy reads run on the replica; the caller's own write is read from the primary; a replica that falls behind serves nothing", async () => {
    expect(await until("the replica's state", ready, (r) => r?.state === "ok")).toMatchObject({ state: "ok" });
    const first = await post();
    // Another caller reads the data set once the replica has it, from the replica.
    const before = await heavyReads();
    await until(
      "the first data set on the reader's list",
      () => listed(reader),
      (ids) => ids.includes(first),
    );
    const after = await heavyReads();
    expect(after.up).toBe(true);
    expect(after.replica).toBeGreaterThan(before.replica);

    // Replay paused: the replica stops at `first`. The writer's own next read sees its write (the
    // primary); the reader, right away, still gets the replica's answer, without it.
    await replica.pauseReplay();
    const second = await post();
    expect(await listed(writer)).toContain(second);
    const stale = await listed(reader);
    expect(stale).toContain(first);
    expect(stale).not.toContain(second);

    // Left paused, the replica is soon more than the bound behind: readiness says so, still 200,
    // and every caller's reads go to the primary.
    const lagging = await until("the replica's state", ready, (r) => r?.state === "lagging");
    expect(lagging.lagSeconds).toBeGreaterThan(MAX_LAG_SECONDS);
    expect(await listed(reader)).toContain(second);

    // Caught up again, it serves again.
    await replica.resumeReplay();
    await until("the replica's state", ready, (r) => r?.state === "ok");
    const third = await post();
    await until(
      "the third data set on the reader's list",
      () => listed(reader),
      (ids) => ids.includes(third),
    );
  });

  test("a replica that goes away: reads fall back to the primary at once, never a 500; back, it serves again", async () => {
    await until("the replica's state", ready, (r) => r?.state === "ok");
    await replica.stopImmediately();
    // The first reads may still be sent to the replica (the monitor looks twice a second): each
    // fails over to the primary within the request.
    for (let i = 0; i < 10; i++) {
      const id = await post();
      expect(await listed(reader)).toContain(id);
    }
    expect((await ready())?.state).toBe("unreachable");
    expect((await heavyReads()).up).toBe(false);

    await replica.start();
    await until("the replica's state", ready, (r) => r?.state === "ok");
    const back = await heavyReads();
    const id = await post();
    await until(
      "the data set on the reader's list",
      () => listed(reader),
      (ids) => ids.includes(id),
    );
    expect((await heavyReads()).replica).toBeGreaterThan(back.replica);
  });
});
