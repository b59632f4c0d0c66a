import fs from "node:fs";
import postgres from "postgres";
import https from "node:https";
import type net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureTestCa } from "../test/helpers/https-receiver";
import { loggedErrors } from "../test/helpers/processes";
import { startWorkerProcess, stopWorkerProcess } from "../test/helpers/delivery-fixture";
import { dataSet, waypoint } from "../test/helpers/telemetry";
import { benchDatabase, benchDriver, loadAverage, launchBenchService } from "./lib/setup";
import { reportLoad } from "./lib/load";
import { percentile } from "./lib/percentile";
import { resultRecorder } from "./lib/results";
import { grouped } from "./lib/format";

// `npm run bench:delivery`: notification delivery on PostgreSQL (DATABASE_URL, or a fresh
// database created here and dropped at the end). The service runs with WORKER=off and one
// `npm run worker` process delivers, as in a deployment with a separate worker.
//
// (a) Latency: 200 data sets/s (single POSTs, open loop, spread over 200 vehicles that each have
//     a WAYPOINT subscription to a local HTTPS receiver) for BENCH_SECONDS (default 60). For
//     each notification: from the data set's commit (taken as the moment its POST answered 200;
//     the commit precedes the answer, so this under-counts nothing but the answer's own trip) to
//     the receiver seeing the webhook's request head (its first bytes).
//     Targets: p50 <= 200 ms, p99 <= 2 s.
// (b) Ceiling: the worker stopped, a backlog of BACKLOG notifications made with batch POSTs,
//     the worker started again; deliveries/s while it drains, the receiver answering at once.
//     Target: >= 1,000 deliveries/s.
// (c) Enqueue cost for ingest: notification_deliveries INSERTs of 1,000 PENDING rows a statement
//     (as ingest's batches write them) with the enqueue trigger (one NOTIFY a statement; the rows
//     are the queue, migration 0034), and with it disabled, rows/s.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const RATE = 200;
const VEHICLES = 200;
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 30_000);
const BATCH = 500;

const met = (ok: boolean) => (ok ? "met" : "MISSED");

async function main() {
  reportLoad("bench:delivery");
  const results = resultRecorder("bench:delivery");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wayline-bench-delivery-"));
  const ca = ensureTestCa(path.join(dir, "ca"));
  const database = benchDatabase("wl_bench_delivery");

  // The receiver: answers 200 at once, and notes when each webhook's request head arrived.
  const firstByte = new Map<string, number>();
  let received = 0;
  const receiver = https.createServer(
    { key: fs.readFileSync(path.join(ca.dir, "server.key")), cert: fs.readFileSync(path.join(ca.dir, "server.pem")) },
    (req, res) => {
      const at = performance.now() + performance.timeOrigin;
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        received++;
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
            vehicleId: number;
            recordedWaypoint: { timestamp: string };
          };
          const key = `${body.vehicleId}|${body.recordedWaypoint.timestamp}`;
          if (!firstByte.has(key)) firstByte.set(key, at);
        } catch {
          // not ours
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    },
  );
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `https://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;

  const service = await launchBenchService({
    name: "bench-delivery",
    databaseUrl: database.url,
    extraEnv: { WORKER: "off", DELIVERY_CA_FILE: ca.certFile, DELIVERY_RETRY_SCALE: "1", RATE_LIMITS: "off" },
  });
  const workerEnv = { ...service.env, DELIVERY_CA_FILE: ca.certFile, DELIVERY_RETRY_SCALE: "1", WORKER: "on" };
  let worker = startWorkerProcess(workerEnv);
  try {
    await worker.ready;
    const driver = await benchDriver(service.baseUrl, service.env, "bench-delivery", { dataProvider: true });
    const vehicles: number[] = [];
    for (let i = 0; i < VEHICLES; i++) {
      const id = await driver.newVehicle(`Delivery bench ${i}`);
      const sub = await fetch(`${service.baseUrl}/v1/api/vehicle/${id}/eventSubscription/WAYPOINT/`, {
        method: "POST",
        headers: { ...driver.auth, "Content-Type": "application/json" },
        body: JSON.stringify({ postUrl: receiverUrl }),
      });
      if (sub.status !== 200) throw new Error(`subscription: ${sub.status} ${await sub.text()}`);
      vehicles.push(id);
    }

    // Per vehicle, timestamps one second apart in the past (the wire DateTime has seconds).
    const start = Math.floor((Date.now() - 30 * 86_400_000) / 1000) * 1000;
    const counters = new Map<number, number>();
    const nextSet = (vehicle: number) => {
      const n = counters.get(vehicle) ?? 0;
      counters.set(vehicle, n + 1);
      const at = new Date(start + n * 1000);
      return {
        set: dataSet(at, "RUNNING", [waypoint(39.5 + (n % 1000) * 1e-5, -83)]),
        stamp: at
          .toISOString()
          .replace(/[-:]/g, "")
          .replace(/\.\d{3}Z$/, "+0000"),
      };
    };
    const post = (vehicle: number, body: unknown) =>
      fetch(`${service.baseUrl}/v1/api/vehicle/${vehicle}/dataSet/`, {
        method: "POST",
        headers: { ...driver.auth, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });

    // (a) latency at 200 data sets/s
    const committed = new Map<string, number>();
    let failures = 0;
    const inFlight: Promise<void>[] = [];
    const t0 = performance.now();
    for (let i = 0; i < RATE * SECONDS; i++) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const vehicle = vehicles[i % VEHICLES]!;
      const { set, stamp } = nextSet(vehicle);
      inFlight.push(
        post(vehicle, set).then(
          async (res) => {
            const at = performance.now() + performance.timeOrigin;
            await res.arrayBuffer();
            if (res.status === 200) committed.set(`${vehicle}|${stamp}`, at);
            else {
              failures++;
              if (failures <= 3) console.error(`data set POST: ${res.status}`);
            }
          },
          (error) => {
            failures++;
            if (failures <= 3) console.error(`data set POST: ${error}`);
          },
        ),
      );
    }
    await Promise.all(inFlight);
    const sendSeconds = (performance.now() - t0) / 1000;
    const deadline = Date.now() + 30_000;
    while ([...committed.keys()].some((k) => !firstByte.has(k)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const latencies = [...committed]
      .map(([k, at]) => (firstByte.has(k) ? Math.max(0, firstByte.get(k)! - at) : Infinity))
      .sort((a, b) => a - b);
    const missing = latencies.filter((l) => l === Infinity).length;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);

    // (b) ceiling: a backlog drained by a fresh worker
    await stopWorkerProcess(worker);
    const before = received;
    const batches = Math.ceil(BACKLOG / BATCH);
    for (let b = 0; b < batches; b += 4) {
      await Promise.all(
        [0, 1, 2, 3]
          .filter((k) => b + k < batches)
          .map(async (k) => {
            const vehicle = vehicles[(b + k) % VEHICLES]!;
            const res = await post(
              vehicle,
              Array.from({ length: BATCH }, () => nextSet(vehicle).set),
            );
            if (res.status !== 200) throw new Error(`batch: ${res.status} ${await res.text()}`);
          }),
      );
    }
    const backlog = batches * BATCH;
    worker = startWorkerProcess(workerEnv);
    await worker.ready;
    const drainStart = performance.now();
    let last = received;
    let lastChange = performance.now();
    while (received - before < backlog && performance.now() - lastChange < 30_000) {
      await new Promise((r) => setTimeout(r, 100));
      if (received !== last) {
        last = received;
        lastChange = performance.now();
      }
    }
    const drained = received - before;
    // From the worker being ready to the last webhook.
    const drainSeconds = (lastChange - drainStart) / 1000;
    const ceiling = drained / drainSeconds;
    if (drained < backlog) console.error(`worker output:\n${worker.output().slice(-3000)}`);

    // (c) enqueue cost, with no worker running (the rows are removed afterwards)
    await stopWorkerProcess(worker);
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const [{ delivery_id: deliveryId } = { delivery_id: 0 }] = await sql<
      { delivery_id: number }[]
    >`select delivery_id from notification_deliveries limit 1`;
    const notificationIds = (await sql<{ id: string }[]>`select id from notifications order by id limit 1000`).map(
      (r) => r.id,
    );
    const insertRate = async () => {
      const statements = 20;
      const t = performance.now();
      for (let i = 0; i < statements; i++) {
        await sql`insert into notification_deliveries (notification_id, delivery_id, status) select
          unnest(${`{${notificationIds.join(",")}}`}::bigint[]), ${deliveryId}, 'PENDING'`;
      }
      return (statements * notificationIds.length) / ((performance.now() - t) / 1000);
    };
    // Alternated, best of three each: the table grows and caches warm as it goes.
    const firstId = Number(
      (await sql<{ n: string }[]>`select coalesce(max(id), 0) as n from notification_deliveries`)[0]!.n,
    );
    let withTrigger = 0;
    let withoutTrigger = 0;
    for (let round = 0; round < 3; round++) {
      withTrigger = Math.max(withTrigger, await insertRate());
      await sql`alter table notification_deliveries disable trigger notification_deliveries_enqueue`;
      withoutTrigger = Math.max(withoutTrigger, await insertRate());
      await sql`alter table notification_deliveries enable trigger notification_deliveries_enqueue`;
    }
    await sql`delete from notification_deliveries where id > ${firstId}`;
    await sql.end();

    console.log(
      [
        "",
        `bench:delivery on PostgreSQL, ${os.cpus().length} cores, load average after: ${loadAverage()}`,
        `(a) ${RATE} data sets/s for ${SECONDS} s (sent in ${sendSeconds.toFixed(1)} s), ${VEHICLES} vehicles with a WAYPOINT subscription each`,
        `    notifications: ${committed.size} committed, ${committed.size - missing} delivered, ${missing} missing, ${failures} failed POSTs`,
        `    commit → receiver's first byte: p50 ${p50.toFixed(0)} ms (target <= 200: ${met(p50 <= 200)}), ` +
          `p99 ${p99.toFixed(0)} ms (target <= 2000: ${met(p99 <= 2000)})`,
        `(b) backlog of ${backlog} notifications drained by one worker: ${drained} delivered in ${drainSeconds.toFixed(1)} s = ` +
          `${ceiling.toFixed(0)} deliveries/s (target >= 1000: ${met(ceiling >= 1000)})`,
        `(c) notification_deliveries INSERT, 1,000 rows a statement: ${withTrigger.toFixed(0)} rows/s with the enqueue ` +
          `trigger (its NOTIFY), ${withoutTrigger.toFixed(0)} rows/s without; best of 3 alternated runs each`,
        "",
      ].join("\n"),
    );
    // Any 500 is a bug to chase, not noise: show what the service logged for it.
    const errors = loggedErrors(service.output());
    console.log(
      errors.length ? `service errors (${errors.length}):\n${errors.slice(0, 5).join("\n")}` : "service errors: none",
    );
    results.figure("(a) commit → receiver: p50", `${p50.toFixed(0)} ms`, "≤ 200 ms", p50 <= 200);
    results.figure("(a) commit → receiver: p99", `${p99.toFixed(0)} ms`, "≤ 2 s", p99 <= 2000);
    results.figure(
      "(a) notifications delivered",
      `${grouped(committed.size - missing)} of ${grouped(committed.size)} (${grouped(failures)} failed POSTs)`,
    );
    results.figure("(b) backlog drained", `${grouped(ceiling)} deliveries/s`, "≥ 1,000 deliveries/s", ceiling >= 1000);
    results.figure("(b) notifications delivered", `${grouped(drained)} of ${grouped(backlog)}`);
    results.figure(
      "(c) 1,000-row inserts with the trigger / without",
      `${grouped(withTrigger)} / ${grouped(withoutTrigger)} rows/s`,
    );
    results.save();
  } finally {
    await stopWorkerProcess(worker);
    await service.stop();
    await new Promise((r) => receiver.close(r));
    database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
