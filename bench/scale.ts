import { execFileSync } from "node:child_process";
import os from "node:os";
import postgres from "postgres";
import { startOwnPostgres, type OwnPostgres } from "../test/helpers/own-postgres";
import { runScript, type RunningApp, type ServiceEnv } from "../test/helpers/processes";
import { dataSet, waypoint } from "../test/helpers/telemetry";
import { benchDriver, benchRateLimits, driverSession, loadAverage, launchBenchService } from "./lib/setup";
import { copyLatestPoints } from "./lib/latest-points";
import { insertAlone, type AlonePoint } from "./lib/postgres-alone";
import { subscribeMixed } from "./lib/subscriptions";
import { reportLoad } from "./lib/load";
import { resultRecorder } from "./lib/results";
import { grouped } from "./lib/format";

// `npm run bench:scale`: the same figures on an empty database and on one holding
// BENCH_POINTS data points (default 50,000,000) of BENCH_VEHICLES vehicles (default 1,000) over BENCH_MONTHS
// months (default 4), in one run, against the production build on PostgreSQL: single and batched ingest
// rates (batches plain, on a vehicle with ten subscriptions, and PostgreSQL's own insert of such rows, as
// bench:ingest (b) and (c) compare them, whose ratios at size should be those of an empty database),
// every device-data read's p50 and p99, the event feed's read, the live map's read (a driver-site
// session), and the bytes on disk per million points; then the time retention takes to drop the oldest month.
// Target: every figure at size within 20 % of empty; dropping a month ≤ 1 s.
//
// The two databases are measured in alternating rounds (BENCH_ROUNDS, default 8; empty first in the even
// rounds, at size first in the odd ones), each by a service of its own, BENCH_SAMPLES single posts a side
// (default 2,400: a p99 of 600 is their sixth slowest, and a read that touches no table the fill writes still
// gave 1.29–1.39 at 600), BENCH_READ_SAMPLES of every read but the trip replay (default four times as many,
// 9,600), a quarter of BENCH_SAMPLES of the trip replay (300 ms a read) and of each kind of batch, split across
// the rounds; within a round the two take turns request by request. This host's speed moves by up to 30 %
// within minutes: a run that measured the empty database once, ten minutes before the full one, compared the
// host's two speeds as much as the databases, and one that measured a side for a minute and then the other
// gave two all but empty databases a p99 of 1.24 against each other (docs/benchmarks.md).
//
// The server: a PostgreSQL cluster of the benchmark's own (initdb in a temporary directory, fsync on, every
// other setting PostgreSQL's default but shared_buffers: BENCH_SHARED_BUFFERS, default a quarter of the
// machine's memory, as docs/operations.md advises), or, with DATABASE_URL, the server it names (two databases
// of the benchmark's own are made there and dropped).
//
// The bulk is written at the database level, as a year of ingest would have left it (data sets every few
// minutes, 3 points each, the counters), with INSERT … SELECT generate_series per chunk of vehicles, into
// the month partitions made first (docs/partitions.md); the measured vehicles' own data goes through the API.
// A small run to check it works:
// BENCH_POINTS=300000 BENCH_VEHICLES=20 BENCH_SAMPLES=20 BENCH_ROUNDS=2 npm run bench:scale

const POINTS = Number(process.env.BENCH_POINTS ?? 50_000_000);
const VEHICLES = Number(process.env.BENCH_VEHICLES ?? 1_000);
const MONTHS = Number(process.env.BENCH_MONTHS ?? 4);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2_400);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 8));
const SHARED_BUFFERS = process.env.BENCH_SHARED_BUFFERS ?? `${Math.floor(os.totalmem() / 4 / 2 ** 20)}MB`;
/** Single posts in one round (the reads' count is READS_PER_ROUND, below). */
const PER_ROUND = Math.max(1, Math.ceil(SAMPLES / ROUNDS));
/** The trip replay's, a quarter as many (600 a side at the default): it takes about 300 ms a read. */
const SLOW_PER_ROUND = Math.max(1, Math.ceil(SAMPLES / 4 / ROUNDS));
/**
 * A quarter as many batches of each kind (600 a side): a p99 of few is their slowest one (16 a side gave 1.45 at
 * size, one batch), and of 300 (an eighth) their fourth slowest (the subscribed
 * batches' p99 came out at 1.22 in the run that added them).
 */
const BATCHES_PER_ROUND = Math.max(2, Math.ceil(SAMPLES / 4 / ROUNDS));
/**
 * Samples of each quick read (every read but the trip replay) in one round: BENCH_READ_SAMPLES a side, default four
 * times BENCH_SAMPLES (9,600). With 2,400 a read's p99 ratio still had a 95 % interval 0.3–0.57 wide, so one run
 * in a few put one of the ten reads past 1.2 with nothing at size to cause it (docs/benchmarks.md); four times
 * the samples about halve the interval (measured in two runs), for about a quarter hour more a run.
 */
const READS_PER_ROUND = Math.max(1, Math.ceil(Number(process.env.BENCH_READ_SAMPLES ?? 4 * SAMPLES) / ROUNDS));
const WARMUP = Math.min(5, SLOW_PER_ROUND);
/**
 * Where each measured vehicle's data starts: a data set a second, the most a vehicle gets in the warm-up round
 * and the counted ones (the measured vehicle's ON, warm-up posts, single posts and batches), ending before now
 * (ingest takes no data set more than 5 minutes ahead). The fill's data ends three days ago.
 */
const CLOCK_START = Date.now() - (ROUNDS + 1) * (2 + WARMUP + PER_ROUND + BATCHES_PER_ROUND * 500) * 1000 - 3_600_000;
const POINTS_PER_SET = 3;
const BATCH_KINDS: BatchKind[] = ["plain", "subscribed", "alone"];
/** The points of a batch's data sets, as the API's batches here carry them (a position, a speed). */
const ALONE_POINTS: AlonePoint[] = [() => ["GEN_WAYPOINT", "40.1,-83.1"], () => ["GEN_SPEED", "42"]];
const VEHICLES_PER_CHUNK = 10;
const DAY = 86_400_000;
/** The trip replay: the one slow read (SLOW_PER_ROUND samples); the others are the quick reads. */
const TRIP_REPLAY = "trip/{id}";
const WITHIN = "within 20 % of empty";

/**
 * A figure of a side. Those taken from samples keep them and the statistic (`of`), so that the ratio of the two
 * sides can be given with its bootstrap interval (`ratioInterval`).
 */
type Figure = {
  name: string;
  unit: string;
  value: number;
  higherIsBetter: boolean;
  sampled?: { samples: number[]; of: (samples: number[]) => number };
};

/** Every sample one side's rounds took, pooled. */
type Samples = {
  singles: number[];
  /** The batches of 500 (ms each): plain, on the vehicle with ten subscriptions, and PostgreSQL's own insert of such rows. */
  batches: Record<BatchKind, number[]>;
  reads: Map<string, number[]>;
};
type BatchKind = "plain" | "subscribed" | "alone";

const noSamples = (): Samples => ({
  singles: [],
  batches: { plain: [], subscribed: [], alone: [] },
  reads: new Map(),
});

/** One database, its own service, and the driver whose vehicle is measured. */
type Side = {
  name: string;
  sql: postgres.Sql;
  service: RunningApp;
  vehicleId: number;
  /**
   * Batches beside the measured vehicle's, of another driver and app (so the measured reads, the event feed's
   * among them, see none of their rows): a vehicle with bench:ingest (c)'s ten subscriptions, and one whose
   * batches PostgreSQL inserts alone (bench/lib/postgres-alone.ts), as bench:ingest (b) compares them.
   */
  other: { auth: Record<string, string>; subscribedVehicleId: number; aloneVehicleId: number };
  auth: Record<string, string>;
  clientToken: string;
  site: Record<string, string>;
  /** Each vehicle's last data set's time (its next is a second later), from CLOCK_START on. */
  clock: Record<"measured" | "subscribed" | "alone", number>;
  samples: Samples;
};

/** The wire's DateTime (docs/api.md#datetime). */
const wireTime = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");
const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const COUNT_WORDS = "none one two three four five six seven eight nine ten eleven twelve".split(" ");
/** "nine", as the figures' names count the reads. */
const countWord = (n: number) => COUNT_WORDS[n] ?? String(n);

async function main() {
  reportLoad("bench:scale");
  const results = resultRecorder("bench:scale");
  const server = await benchServer();
  const made: Side[] = [];
  try {
    const [settings] = await server.admin<{ shared_buffers: string; fsync: string; autovacuum: string }[]>`
      select current_setting('shared_buffers') as shared_buffers, current_setting('fsync') as fsync,
             current_setting('autovacuum') as autovacuum`;
    console.log(
      `bench:scale: PostgreSQL ${server.description}: shared_buffers ${settings!.shared_buffers}, fsync ${settings!.fsync}, autovacuum ${settings!.autovacuum}`,
    );
    const empty = await side(server, "empty", "empty");
    made.push(empty);
    const full = await side(server, "full", `${POINTS.toLocaleString("en")} points`);
    made.push(full);
    await fill(full.sql);
    // The empty database analysed as well (the fill ends with the filled one's VACUUM ANALYZE), so that the
    // planner has statistics of both taken alike.
    await empty.sql`vacuum analyze`;

    // A first round on each side, not counted: the services' code and PostgreSQL's caches warm up on it (in
    // runs without it, the empty database measured slower than the full one: single posts 90 against 129 per
    // second).
    console.log(`bench:scale: a warm-up round on each side (not counted; load ${loadAverage()})`);
    await writeRound([empty, full], false);
    await readRound([empty, full], false);
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? [empty, full] : [full, empty];
      const taken = await writeRound(order, true);
      await readRound(order, true);
      const [a, b] = order.map((s, i) => `${s.name}: ${taken[i]}, GET data/ p50 ${roundP50(s, "data/").toFixed(1)} ms`);
      console.log(`bench:scale: round ${r + 1} of ${ROUNDS} (load ${loadAverage()}): ${a}; ${b}`);
    }

    const emptyFigures = [...figures(empty.samples), await diskPerMillion(empty.sql)];
    const fullFigures = [...figures(full.samples), await diskPerMillion(full.sql)];
    // Retention dropping the oldest month, twice: the fill's first month (partial), then its second (whole). Each
    // run's cutoff is the end of the oldest month left.
    const drops = [
      await dropOldestMonth(full.sql, full.service.env),
      await dropOldestMonth(full.sql, full.service.env),
    ];

    console.log(
      `\nbench:scale — ${VEHICLES} vehicles, ${MONTHS} months, ${ROUNDS} alternating rounds, ` +
        `${PER_ROUND * ROUNDS} single posts a side, ${READS_PER_ROUND * ROUNDS} samples of each quick read ` +
        `(${SLOW_PER_ROUND * ROUNDS} of the trip replay), ${BATCHES_PER_ROUND * ROUNDS} batches of each ` +
        `kind, load ${loadAverage()}`,
    );
    console.log(
      `| figure | empty | ${POINTS.toLocaleString("en")} points | at size / empty | its 95 % interval | within 20 % |`,
    );
    console.log("| --- | --- | --- | --- | --- | --- |");
    const compared = new Map<string, { e: Figure; f: Figure; ratio: number; ok: boolean }>();
    for (const e of emptyFigures) {
      const f = fullFigures.find((x) => x.name === e.name)!;
      const ratio = f.value / e.value;
      const ok = e.higherIsBetter ? ratio >= 0.8 : ratio <= 1.2;
      compared.set(e.name, { e, f, ratio, ok });
      const interval = e.sampled && f.sampled ? ratioInterval(e.sampled, f.sampled.samples) : null;
      console.log(
        `| ${e.name} (${e.unit}) | ${e.value.toFixed(1)} | ${f.value.toFixed(1)} | ${ratio.toFixed(2)} | ` +
          `${interval ? interval.map((x) => x.toFixed(2)).join("–") : ""} | ${ok ? "yes" : "NO"} |`,
      );
    }
    // Point 5's ratios on each side (the batches go one at a time here; bench:ingest's (b) and (c) at four
    // connections give them on an empty database).
    const valueOf = (figures: Figure[], name: string) => figures.find((x) => x.name === name)!.value;
    const point5 = { alone: [] as number[], subscribed: [] as number[] };
    for (const [label, figs] of [
      ["empty", emptyFigures],
      ["at size", fullFigures],
    ] as const) {
      const plain = valueOf(figs, "batches of 500");
      point5.alone.push(plain / valueOf(figs, "PostgreSQL alone, batches of 500"));
      point5.subscribed.push(valueOf(figs, "batches of 500, 10 subscriptions") / plain);
      console.log(
        `${label}: batches / PostgreSQL alone ${point5.alone.at(-1)!.toFixed(2)}, subscribed / batches ${point5.subscribed.at(-1)!.toFixed(2)}`,
      );
    }
    for (const d of drops) {
      console.log(
        `\nretention --days ${d.days}: ${d.result.partitions} month(s) dropped, ` +
          `${d.result.deleted.toLocaleString("en")} points, ${d.seconds.toFixed(2)} s for the whole run (a ` +
          `process start, the partitions ahead, the month's counters under its lock, the drop, and the ` +
          `batches' pass over every vehicle)`,
      );
      for (const m of d.months)
        console.log(
          `  ${m.partition}: ${m.points.toLocaleString("en")} points; the month's transaction ${m.emptyMs} ms ` +
            `(its counter rows off the totals ${m.countersMs} ms, the detach ${m.detachMs} ms, commit ` +
            `${m.commitMs} ms: target ≤ 1 s); then the drop of the detached month, which no request waits for, ` +
            `${m.dropMs} ms`,
        );
    }

    // The figures as docs/benchmarks.md's table gives them: each at size against empty, with its two values.
    const size = `${POINTS / 1_000_000} M`;
    const of = (name: string) => compared.get(name)!;
    const amount = (figure: Figure) => (figure.unit === "points/s" ? grouped(figure.value) : figure.value.toFixed(1));
    const against = (name: string, label: string) => {
      const { e, f, ratio, ok } = of(name);
      results.figure(
        `${label}, ${size} / empty`,
        `${ratio.toFixed(2)} (${amount(e)} → ${amount(f)} ${e.unit})`,
        WITHIN,
        ok,
      );
    };
    against("single posts", "single posts");
    against("single post p99", "single posts p99");
    against("batches of 500", "batches of 500");
    against("batches of 500 p99", "batches of 500 p99");
    against("batches of 500, 10 subscriptions", "batches, 10 subscriptions a vehicle");
    against("batches of 500, 10 subscriptions p99", "batches, 10 subscriptions a vehicle p99");
    const quick = [...compared.values()].filter(
      (c) => c.e.name.startsWith("GET ") && !c.e.name.startsWith(`GET ${TRIP_REPLAY} `),
    );
    for (const p of ["p50", "p99"]) {
      const ratios = quick.filter((c) => c.e.name.endsWith(` ${p}`));
      results.figure(
        `the reads' ${p}s (${countWord(ratios.length)}), ${size} / empty`,
        `${Math.min(...ratios.map((c) => c.ratio)).toFixed(2)}–${Math.max(...ratios.map((c) => c.ratio)).toFixed(2)}`,
        WITHIN,
        ratios.every((c) => c.ok),
      );
    }
    const [replayP50, replayP99] = [of(`GET ${TRIP_REPLAY} p50`), of(`GET ${TRIP_REPLAY} p99`)];
    results.figure(
      `GET ${TRIP_REPLAY} p50, p99, ${size} / empty`,
      `${replayP50.ratio.toFixed(2)}, ${replayP99.ratio.toFixed(2)}`,
      WITHIN,
      replayP50.ok && replayP99.ok,
    );
    against("disk per million points", "disk per million points");
    const months = drops.flatMap((d) => d.months);
    results.figure(
      `a month dropped: the month's transaction (${months.map((m) => `${(m.points / 1_000_000).toFixed(1)} M points`).join("; ")})`,
      months.map((m) => `${grouped(m.emptyMs)} ms`).join("; "),
      "≤ 1 s",
      months.length > 0 && months.every((m) => m.emptyMs <= 1000),
    );
    results.figure(
      "the detached month's drop after it",
      months.map((m) => `${(m.dropMs / 1000).toFixed(2)} s`).join("; "),
    );
    results.figure("retention's whole run, each time", drops.map((d) => `${d.seconds.toFixed(2)} s`).join("; "));
    against("PostgreSQL alone, batches of 500", "PostgreSQL alone's batches");
    against("PostgreSQL alone, batches of 500 p99", "PostgreSQL alone's batches p99");
    const pair = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(", ");
    results.figure("batches / PostgreSQL alone, empty and at size", pair(point5.alone));
    results.figure("subscribed / plain batches, empty and at size", pair(point5.subscribed));
    results.save();
  } finally {
    for (const s of made) {
      await s.sql.end();
      await s.service.stop();
    }
    await server.remove();
  }
}

/**
 * Where the two databases live: a cluster of the benchmark's own, or DATABASE_URL's server. `database(name)`
 * makes one there and gives its URL; remove() drops them (and the cluster).
 */
async function benchServer(): Promise<{
  description: string;
  admin: postgres.Sql;
  database(name: string): Promise<string>;
  remove(): Promise<void>;
}> {
  let cluster: OwnPostgres | undefined;
  let url = process.env.DATABASE_URL;
  if (!url) {
    cluster = await startOwnPostgres("bench-scale", { durable: true, settings: `-c shared_buffers=${SHARED_BUFFERS}` });
    url = cluster.url;
  }
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  const names: string[] = [];
  const at = new URL(url);
  return {
    description: cluster ? `a cluster of the benchmark's own on port ${at.port}` : `at ${at.host}`,
    admin,
    async database(name) {
      const db = `wl_bench_scale_${name}_${Date.now()}`;
      await admin`create database ${admin(db)}`;
      names.push(db);
      at.pathname = `/${db}`;
      return at.toString();
    },
    async remove() {
      for (const db of names) await admin`drop database if exists ${admin(db)} with (force)`;
      await admin.end();
      await cluster?.remove();
    },
  };
}

/** A database of its own, its service, a driver with the vehicle to measure, and the driver site's session. */
async function side(server: Awaited<ReturnType<typeof benchServer>>, tag: string, name: string): Promise<Side> {
  const url = await server.database(tag);
  const service = await launchBenchService({ name: "bench-scale", databaseUrl: url, extraEnv: benchRateLimits() });
  const base = service.baseUrl;
  const driver = await benchDriver(base, service.env, "bench-scale", { dataProvider: true });
  const other = await benchDriver(base, service.env, "bench-scale-other", { dataProvider: true });
  const subscribedVehicleId = await other.newVehicle("Subscribed");
  await subscribeMixed(base, other.auth, subscribedVehicleId);
  return {
    name,
    sql: postgres(url, { max: 2, onnotice: () => {} }),
    service,
    vehicleId: await driver.newVehicle("Measured"),
    other: { auth: other.auth, subscribedVehicleId, aloneVehicleId: await other.newVehicle("PostgreSQL alone") },
    auth: driver.auth,
    clientToken: driver.clientToken,
    site: { Cookie: await driverSession(base, driver.username, driver.password) },
    clock: { measured: CLOCK_START, subscribed: CLOCK_START, alone: CLOCK_START },
    samples: noSamples(),
  };
}

/**
 * `times` turns of every side, one request at a time, the side going first moving on by one each turn: side 0
 * then 1, then 1 then 0, and so on. A moment the host is slow then falls on the sides alike.
 */
async function takeTurns(times: number, sides: number, turn: (side: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < times; i++) for (let k = 0; k < sides; k++) await turn((i + k) % sides);
}

/**
 * One round's writes: single posts, then batches of 500 data sets, PER_ROUND and BATCHES_PER_ROUND of them a
 * side (WARMUP single posts before, not counted), the sides taking turns request by request as the reads do
 * (readRound); added to each side's samples when `counted`. The posts are one at a time, so a side's rate is
 * its requests over their summed times. Returns a line of each side's rates in this round, in `sides` order,
 * to show how far the rounds agree.
 */
async function writeRound(sides: Side[], counted: boolean): Promise<string[]> {
  const times = (s: Side, vehicle: keyof Side["clock"], sets: number) =>
    Array.from({ length: sets }, () => new Date((s.clock[vehicle] += 1_000)));
  const post = async (s: Side, sets: number, ignition: "ON" | "RUNNING", subscribed = false) => {
    const body = times(s, subscribed ? "subscribed" : "measured", sets).map((at) => {
      const speed = ignition === "RUNNING" ? [{ key: "GEN_SPEED", value: 42 }] : [];
      return dataSet(at, ignition, [waypoint(40.1, -83.1), ...speed]);
    });
    const [vehicleId, auth] = subscribed ? [s.other.subscribedVehicleId, s.other.auth] : [s.vehicleId, s.auth];
    const began = performance.now();
    const res = await fetch(`${s.service.baseUrl}/v1/api/vehicle/${vehicleId}/dataSet/`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const ms = performance.now() - began;
    if (res.status !== 200) throw new Error(`ingest: ${res.status} ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
    return ms;
  };
  const round = sides.map(() => ({ singles: [] as number[], ...noSamples().batches }));
  const inTurns = async (
    count: number,
    sets: number,
    into: "singles" | "plain" | "subscribed" | null,
    ignition: "ON" | "RUNNING" = "RUNNING",
  ) => {
    await takeTurns(count, sides.length, async (side) => {
      const ms = await post(sides[side]!, sets, ignition, into === "subscribed");
      if (into) round[side]![into].push(ms);
    });
  };
  // An ON opens a trip of this round's own on each side: the trip read (readRound) then reads the same number of
  // data sets on either side and in every round (the sets below extend it).
  await inTurns(1, 1, null, "ON");
  await inTurns(WARMUP, 1, null);
  await inTurns(PER_ROUND, 1, "singles");
  await inTurns(BATCHES_PER_ROUND, 500, "plain");
  await inTurns(BATCHES_PER_ROUND, 500, "subscribed");
  await takeTurns(BATCHES_PER_ROUND, sides.length, async (side) => {
    const s = sides[side]!;
    const sets = times(s, "alone", 500);
    const began = performance.now();
    await insertAlone(s.sql, "public", s.other.aloneVehicleId, sets, ALONE_POINTS);
    round[side]!.alone.push(performance.now() - began);
  });

  const batchRate = (samples: number[]) => rateOf(1_000)(samples).toFixed(0);
  return sides.map((s, k) => {
    const { singles, ...batches } = round[k]!;
    if (counted) {
      s.samples.singles.push(...singles);
      for (const kind of BATCH_KINDS) s.samples.batches[kind].push(...batches[kind]);
    }
    return (
      `single posts ${rateOf(1)(singles).toFixed(1)}/s, batches ${batchRate(batches.plain)}, subscribed ` +
      `${batchRate(batches.subscribed)}, PostgreSQL alone ${batchRate(batches.alone)} points/s`
    );
  });
}

/** Every read of a side, each a request that answers its time in ms. */
async function readsOf(s: Side): Promise<{ name: string; slow: boolean; once: () => Promise<number> }[]> {
  const base = s.service.baseUrl;
  const [trip] = await s.sql<{ id: string }[]>`
    select id::text from trips where vehicle_id = ${s.vehicleId} order by start_time desc limit 1`;
  const [set] = await s.sql<{ id: string }[]>`
    select id::text from data_sets where vehicle_id = ${s.vehicleId} order by recorded_at desc limit 1`;
  const v = `${base}/v1/api/vehicle/${s.vehicleId}`;
  // Each read: its name, URL, headers, and whether it is a slow one (SLOW_PER_ROUND samples a round).
  const reads: [string, string, Record<string, string>, slow?: boolean][] = [
    ["data/", `${v}/data/`, s.auth],
    ["data/?key=GEN_SPEED", `${v}/data/?key=GEN_SPEED`, s.auth],
    ["data/?mostRecentOnly=true", `${v}/data/?mostRecentOnly=true`, s.auth],
    ["dataSet/", `${v}/dataSet/`, s.auth],
    ["dataSet/{id}", `${v}/dataSet/${set!.id}`, s.auth],
    ["trip/", `${v}/trip/`, s.auth],
    ["account/data/", `${base}/v1/api/account/data/`, s.auth],
    [
      "eventFeed/",
      `${base}/v1/api/eventFeed/?since=${encodeURIComponent(wireTime(new Date(Date.now() - DAY)))}`,
      { Authorization: `Bearer ${s.clientToken}` },
    ],
    [TRIP_REPLAY, `${v}/trip/${trip!.id}`, s.auth, true],
    // The live map's poll (and what its stream reads on each change): the driver's vehicles where they are.
    ["/me/positions (the map)", `${base}/me/positions`, s.site],
  ];
  return reads.map(([name, url, headers, slow = false]) => ({
    name,
    slow,
    async once() {
      const began = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
      return performance.now() - began;
    },
  }));
}

/**
 * Every read, READS_PER_ROUND samples a side (SLOW_PER_ROUND of the trip replay; WARMUP of each before, not
 * counted), the sides taking turns request by request, the one going first alternating too; added to each
 * side's samples when `counted`. A moment the host is slow then falls on both sides alike: measured a side at
 * a time (a minute each), two nearly empty databases gave a `GET data/` p99 of 1.24 to each other with 600
 * samples (docs/benchmarks.md).
 */
async function readRound(sides: Side[], counted: boolean): Promise<void> {
  const plans = await Promise.all(sides.map(readsOf));
  for (let r = 0; r < plans[0]!.length; r++) {
    const { name, slow } = plans[0]![r]!;
    for (let i = 0; i < WARMUP; i++) for (const plan of plans) await plan[r]!.once();
    await takeTurns(slow ? SLOW_PER_ROUND : READS_PER_ROUND, plans.length, async (side) => {
      const ms = await plans[side]![r]!.once();
      if (!counted) return;
      const reads = sides[side]!.samples.reads;
      const samples = reads.get(name) ?? [];
      samples.push(ms);
      reads.set(name, samples);
    });
  }
}

/** A read's p50 over the last round's samples of a side. */
const roundP50 = (s: Side, name: string) => pct(sorted(s.samples.reads.get(name)!.slice(-READS_PER_ROUND)), 50);

/** A figure of samples: `of` them, kept with them for the interval. */
const sampledFigure = (
  name: string,
  unit: string,
  higherIsBetter: boolean,
  samples: number[],
  of: (samples: number[]) => number,
): Figure => ({ name, unit, value: of(samples), higherIsBetter, sampled: { samples, of } });
/** Requests of `each` units taking `samples` ms one after another: units per second. */
const rateOf = (each: number) => (samples: number[]) =>
  (samples.length * each * 1000) / samples.reduce((a, b) => a + b, 0);
const pctOf = (p: number) => (samples: number[]) => pct(sorted(samples), p);

/**
 * The 95 % interval of the ratio at size / empty of a figure, by the bootstrap: each side's samples drawn again,
 * with replacement, as many as it has, 400 times, the ratio of the statistic taken each time. A p99 of 2,400
 * samples is their 24th slowest: where the slowest few hundredths are sparse, which sample that is moves the
 * figure by tens of per cent from run to run, and the interval says how far.
 */
function ratioInterval(empty: NonNullable<Figure["sampled"]>, full: number[]): [number, number] {
  const draw = (xs: number[]) => Array.from(xs, () => xs[Math.floor(Math.random() * xs.length)]!);
  const ratios = sorted(Array.from({ length: 400 }, () => empty.of(draw(full)) / empty.of(draw(empty.samples))));
  return [pct(ratios, 2.5), pct(ratios, 97.5)];
}

/** A side's figures from its pooled samples. */
function figures(s: Samples): Figure[] {
  const out: Figure[] = [
    sampledFigure("single posts", "posts/s", true, s.singles, rateOf(1)),
    sampledFigure("single post p99", "ms", false, s.singles, pctOf(99)),
  ];
  // Each data set of a batch carries two points: a batch is 1,000 points.
  const batchNames: Record<BatchKind, string> = {
    plain: "batches of 500",
    subscribed: "batches of 500, 10 subscriptions",
    alone: "PostgreSQL alone, batches of 500",
  };
  for (const kind of BATCH_KINDS) {
    out.push(sampledFigure(batchNames[kind], "points/s", true, s.batches[kind], rateOf(1_000)));
    out.push(sampledFigure(`${batchNames[kind]} p99`, "ms", false, s.batches[kind], pctOf(99)));
  }
  for (const [name, samples] of s.reads) {
    out.push(sampledFigure(`GET ${name} p50`, "ms", false, samples, pctOf(50)));
    out.push(sampledFigure(`GET ${name} p99`, "ms", false, samples, pctOf(99)));
  }
  return out;
}

/** Bytes on disk per million points: data_points with its indexes, every partition. */
async function diskPerMillion(sql: postgres.Sql): Promise<Figure> {
  const [size] = await sql<{ bytes: string; n: string }[]>`
    select (select sum(pg_total_relation_size(inhrelid))::text from pg_inherits where inhparent = 'data_points'::regclass) as bytes,
           (select count(*)::text from data_points) as n`;
  // Bytes a point are megabytes a million points.
  return {
    name: "disk per million points",
    unit: "MB",
    value: Number(size!.bytes) / Math.max(1, Number(size!.n)),
    higherIsBetter: false,
  };
}

/** `npm run retention` with its cutoff at the end of the oldest month of data_points: that month dropped, and its figures. */
async function dropOldestMonth(sql: postgres.Sql, env: ServiceEnv) {
  const [oldest] = await sql<{ name: string }[]>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = 'data_points'::regclass and c.relname ~ '_p[0-9]{6}$' order by c.relname limit 1`;
  const year = Number(oldest!.name.slice(-6, -2));
  const month = Number(oldest!.name.slice(-2));
  const days = Math.floor((Date.now() - Date.UTC(year, month, 1)) / DAY);
  const began = performance.now();
  const { stdout, stderr } = await runScript("retention.ts", ["--days", String(days)], { ...env, LOG_LEVEL: "info" });
  const seconds = (performance.now() - began) / 1000;
  const result = JSON.parse(stdout.trim().split("\n").pop()!) as { deleted: number; partitions: number };
  // The month's own figures, from the retention's log line (JSON on stderr).
  const months = stderr
    .split("\n")
    .filter((line) => line.includes("emptied a month of data points"))
    .map(
      (line) =>
        JSON.parse(line) as {
          partition: string;
          points: number;
          emptyMs: number;
          countersMs: number;
          detachMs: number;
          commitMs: number;
          dropMs: number;
        },
    );
  return { days, seconds, result, months };
}

/** The bulk: VEHICLES vehicles of an account of their own, POINTS points over MONTHS months before the last two days. */
async function fill(sql: postgres.Sql) {
  const setsPerVehicle = Math.ceil(POINTS / POINTS_PER_SET / VEHICLES);
  const end = Date.now() - 3 * DAY;
  const start = end - MONTHS * 30 * DAY;
  const stepSeconds = Math.max(1, Math.floor((end - start) / 1000 / setsPerVehicle));
  console.log(
    `bench:scale: filling ${VEHICLES} vehicles × ${setsPerVehicle} data sets × ${POINTS_PER_SET} points (one every ${stepSeconds} s)`,
  );
  const began = performance.now();
  for (let m = new Date(start); m.getTime() <= end; m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1)))
    for (const table of ["data_sets", "data_points"])
      await sql`select wayline_create_partition(${table}, 'recorded_at', ${m})`;
  // The bulk vehicles belong to an account of their own: the measured account's reads (account/data/) then
  // compare the same account on a small and a large table, not a small and a large account.
  const [account] = await sql<{ id: number }[]>`
    insert into accounts (first_name, last_name, username, password_hash, environment)
    values ('Bulk', 'Fleet', ${`bulk-${Date.now()}`}, 'x', 'production') returning id`;
  const ids = await sql<{ id: number }[]>`
    insert into vehicles (environment, account_id, label)
    select 'production', ${account!.id}, 'Bulk ' || g from generate_series(1, ${VEHICLES}) g returning id`;
  for (let i = 0; i < ids.length; i += VEHICLES_PER_CHUNK) {
    const chunk = ids.slice(i, i + VEHICLES_PER_CHUNK).map((r) => r.id);
    await sql.begin(async (tx) => {
      await tx`
        with s as (
          insert into data_sets (environment, vehicle_id, recorded_at, points_from, points_to, ignition_status)
          select 'production', v, t.at, t.at, t.at, 'RUNNING'
            from unnest(${chunk}::int[]) v cross join generate_series(0, ${setsPerVehicle - 1}) g
            cross join lateral (select ${new Date(start)}::timestamptz + make_interval(secs => g * ${stepSeconds}) as at) t
          returning id, vehicle_id, recorded_at)
        insert into data_points (vehicle_id, data_set_id, position, recorded_at, key, value)
        select s.vehicle_id, s.id, k.position, s.recorded_at, k.key,
               case k.key when 'GEN_WAYPOINT' then '40.1,-83.1' when 'GEN_SPEED' then (s.id % 90)::text else '13.9' end
          from s cross join (values (0, 'GEN_WAYPOINT'), (1, 'GEN_SPEED'), (2, 'GEN_VOLTAGE')) as k(position, key)`;
      await tx`
        insert into vehicle_data_stats (vehicle_id, data_sets, data_points)
        select v, ${setsPerVehicle}, ${setsPerVehicle * POINTS_PER_SET} from unnest(${chunk}::int[]) v`;
      await tx`
        insert into vehicle_key_stats (vehicle_id, key, month, data_points)
        select v, k, m.month, m.n from unnest(${chunk}::int[]) v cross join unnest(array['GEN_WAYPOINT', 'GEN_SPEED', 'GEN_VOLTAGE']) k
          cross join (select date_trunc('month', (${new Date(start)}::timestamptz + make_interval(secs => g *
            ${stepSeconds})) at time zone 'UTC')::date as month, count(*) as n
                        from generate_series(0, ${setsPerVehicle - 1}) g group by 1) m`;
      await copyLatestPoints(tx, chunk);
    });
  }
  await sql`vacuum analyze`;
  console.log(`bench:scale: filled in ${((performance.now() - began) / 1000).toFixed(0)} s (load ${loadAverage()})`);
  // The fill's gigabytes written out before measuring (PostgreSQL's checkpoint, then the system's page cache): in
  // a run without it, the figures at size were taken while they were still being written, twice the empty ones.
  const flushing = performance.now();
  await sql`checkpoint`;
  execFileSync("sync");
  console.log(
    `bench:scale: checkpoint and sync in ${((performance.now() - flushing) / 1000).toFixed(0)} s (load ${loadAverage()})`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
