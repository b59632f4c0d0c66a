import postgres from "postgres";
import { loggedErrors } from "../test/helpers/processes";
import { openSse, type SseStream } from "../test/helpers/sse";
import { dataSet, waypoint } from "../test/helpers/telemetry";
import { benchDatabase, benchDriver, benchRateLimits, launchBenchService } from "./lib/setup";
import { reportLoad } from "./lib/load";
import { rssKb } from "./lib/memory";
import { inParallel } from "./lib/parallel";
import { percentile } from "./lib/percentile";
import { resultRecorder } from "./lib/results";

// `npm run bench:live`: the event feed and its stream (docs/event-feed.md) on PostgreSQL
// (DATABASE_URL, or a fresh database made here and dropped at the end), one HTTP process.
//
// (a) Commit → event on SSE: BENCH_STREAMS (default 1,000) drivers of one app, each holding a
//     stream of its own account's events (a user token: an app's mobile clients), while 200 data
//     sets/s are posted to their vehicles (open loop, WAYPOINT subscriptions) for BENCH_SECONDS
//     (default 30). Latency from the POST's 200 (the commit precedes it) to the message parsed
//     by the client. Targets: p99 <= 100 ms. Memory per open stream (the service's RSS with the
//     streams open and idle, less before they opened, divided by their number): <= 50 KB.
// (b) An empty feed poll (a caught-up consumer's nextCursor) with BENCH_EVENTS (default
//     1,000,000) events stored for the app, filled at the database level in bulk. Target: p50 <= 20 ms.
// (c) Catch-up of a consumer one hour behind at 200 events/s: BENCH_BEHIND (default 720,000) of
//     those events made in the last hour, read from ?since=<an hour ago> by pages of 1,000, and by
//     a stream. Target: >= 20,000 events/s.

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const BEHIND = Math.min(EVENTS, Number(process.env.BENCH_BEHIND ?? 720_000));
const RATE = 200;
const POLLS = 200;

const met = (ok: boolean) => (ok ? "met" : "MISSED");
const ms = (x: number) => `${x.toFixed(1)} ms`;
const now = () => performance.now() + performance.timeOrigin;

async function main() {
  reportLoad("bench:live");
  const results = resultRecorder("bench:live");
  const database = benchDatabase("wl_bench_live");
  const service = await launchBenchService({
    name: "bench-live",
    databaseUrl: database.url,
    extraEnv: { WORKER: "off", SIMULATOR: "0", ...benchRateLimits() },
  });
  const base = service.baseUrl;
  const sql = postgres(database.url, { max: 2, onnotice: () => {} });
  const streams: SseStream[] = [];
  try {
    const driver = await benchDriver(base, service.env, "bench-live", { dataProvider: true });
    const call = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's answers, read as a client reads them
      return JSON.parse(text) as Record<string, any>;
    };
    const tokenForm = (body: string) =>
      fetch(`${base}/oauth/token`, { method: "POST", headers: driver.form, body }).then(
        (r) => r.json() as Promise<{ access_token: string }>,
      );

    // One account, token, vehicle and WAYPOINT subscription per stream.
    const t0 = performance.now();
    const drivers = await inParallel(STREAMS, 8, async (i) => {
      const { account } = await call("POST", "/v1/api/account/", driver.clientToken, {
        firstName: "Live",
        lastName: `Driver ${i}`,
        username: `live.${Date.now()}.${i}`,
        password: "bench-password",
      });
      const { access_token: token } = await tokenForm(`grant_type=authorization_code&code=${account.accessToken.code}`);
      const { vehicle } = await call("POST", "/v1/api/vehicle/", token, { label: `Live ${i}` });
      await call("POST", `/v1/api/vehicle/${vehicle.vehicleId}/eventSubscription/WAYPOINT/`, token, {
        notificationPeriod: "CONTINUOUS",
        postUrl: "https://hooks.partner.example/live",
      });
      return { token, vehicleId: vehicle.vehicleId as number };
    });
    console.log(`bench:live: ${STREAMS} drivers set up in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

    // (a) streams open and idle: memory; then 200 data sets/s: latency.
    const received = new Map<number, number>();
    const rssBefore = rssKb(service.pid);
    for (const d of drivers)
      streams.push(
        await openSse(`${base}/v1/api/eventFeed/stream`, {
          token: d.token,
          keep: false,
          onMessage: (m) => received.set(m.data.dataSetId as number, now()),
        }),
      );
    if (streams.some((s) => s.status !== 200)) throw new Error("a stream did not open");
    await new Promise((r) => setTimeout(r, 3000));
    const rssAfter = rssKb(service.pid);
    const perStreamKb = (rssAfter - rssBefore) / STREAMS;

    const committed = new Map<number, number>();
    let failures = 0;
    const start = Math.floor((Date.now() - 30 * 86_400_000) / 1000) * 1000;
    const sent: Promise<void>[] = [];
    const tl = performance.now();
    for (let i = 0; i < RATE * SECONDS; i++) {
      const wait = tl + (i * 1000) / RATE - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const d = drivers[i % drivers.length]!;
      const set = dataSet(new Date(start + i * 1000), "RUNNING", [waypoint(39.5 + (i % 1000) * 1e-5, -83)]);
      sent.push(
        call("POST", `/v1/api/vehicle/${d.vehicleId}/dataSet/`, d.token, set).then(
          (body) => void committed.set(body.dataSet.id as number, now()),
          () => void failures++,
        ),
      );
    }
    await Promise.all(sent);
    const deadline = Date.now() + 30_000;
    while ([...committed.keys()].some((id) => !received.has(id)) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const latencies = [...committed]
      .map(([id, at]) => (received.has(id) ? Math.max(0, received.get(id)! - at) : Infinity))
      .sort((x, y) => x - y);
    const lost = latencies.filter((l) => l === Infinity).length;
    for (const s of streams) s.close();

    // Fill: EVENTS notifications of the app's first driver, copies of a real one, made 200 a
    // second up to now (created_at), in statements of 100,000.
    const [template] = await sql<{ id: string }[]>`
      select n.id::text from notifications n where n.vehicle_id = ${drivers[0]!.vehicleId} order by n.id limit 1`;
    const tf = performance.now();
    for (let done = 0; done < EVENTS; done += 100_000) {
      const n = Math.min(100_000, EVENTS - done);
      await sql`
        insert into notifications (environment, subscription_id, app_id, account_id, vehicle_id, data_set_id,
                                   trip_id, type, event_at, created_at, body)
        select t.environment, t.subscription_id, t.app_id, t.account_id, t.vehicle_id, t.data_set_id, t.trip_id,
               t.type, t.event_at, now() - (${EVENTS}::int - ${done}::int - g) * interval '5 ms', t.body
          from notifications t, generate_series(1, ${n}::int) g
         where t.id = ${template!.id}`;
    }
    await sql`analyze notifications`;
    console.log(`bench:live: ${EVENTS} events filled in ${((performance.now() - tf) / 1000).toFixed(0)} s`);

    // (c) catch-up from an hour ago: by pages, then by a stream.
    const since = new Date(Date.now() - (BEHIND / RATE) * 1000)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}Z$/, "+0000");
    const feed = (query: string) => call("GET", `/v1/api/eventFeed/?searchLimit=1000&${query}`, driver.clientToken);
    let pageEvents = 0;
    const tc = performance.now();
    let page = await feed(`since=${encodeURIComponent(since)}`);
    while (page.events.length > 0) {
      pageEvents += page.events.length;
      page = await feed(`after=${encodeURIComponent(page.nextCursor)}`);
    }
    const pagesRate = pageEvents / ((performance.now() - tc) / 1000);
    const ts = performance.now();
    const catchUp = await openSse(`${base}/v1/api/eventFeed/stream?since=${encodeURIComponent(since)}`, {
      token: driver.clientToken,
      keep: false,
    });
    await catchUp.waitForMessages(pageEvents, 600_000);
    const streamRate = pageEvents / ((performance.now() - ts) / 1000);
    catchUp.close();

    // (b) the caught-up consumer's empty polls.
    const polls: number[] = [];
    for (let i = 0; i < POLLS; i++) {
      const tp = performance.now();
      const empty = await feed(`after=${encodeURIComponent(page.nextCursor)}`);
      polls.push(performance.now() - tp);
      if (empty.events.length !== 0) throw new Error("the caught-up poll was not empty");
      page = empty;
    }
    polls.sort((x, y) => x - y);

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(
      [
        "",
        "bench:live (PostgreSQL, one HTTP process)",
        `(a) commit → SSE, ${STREAMS} open streams (user tokens), ${RATE} data sets/s for ${SECONDS} s: ` +
          `${committed.size} committed, ${failures} failed POSTs, ${lost} never received`,
        `    p50 ${ms(p50)}, p99 ${ms(p99)}                               target p99 <= 100 ms: ${met(p99 <= 100 && lost === 0)}`,
        `    memory per open stream: ${perStreamKb.toFixed(1)} KB (RSS ${rssBefore} → ${rssAfter} KB)   target <= 50 KB: ${met(perStreamKb <= 50)}`,
        `(b) empty feed poll at ${EVENTS} stored events: p50 ${ms(percentile(polls, 50))}, p99 ${ms(percentile(polls, 99))} ` +
          `(${POLLS} polls)   target p50 <= 20 ms: ${met(percentile(polls, 50) <= 20)}`,
        `(c) catch-up of ${pageEvents} events (${BEHIND} made in the last ${(BEHIND / RATE / 60).toFixed(0)} min):`,
        `    by pages of 1,000: ${pagesRate.toFixed(0)} events/s   target >= 20,000: ${met(pagesRate >= 20_000)}`,
        `    by the stream:     ${streamRate.toFixed(0)} events/s   target >= 20,000: ${met(streamRate >= 20_000)}`,
        "",
      ].join("\n"),
    );
    const delivered = committed.size - lost;
    const count = (n: number) => n.toLocaleString("en-US");
    results.figure(
      `(a) commit → message on the stream, ${count(STREAMS)} user-token streams: p99`,
      ms(p99),
      "≤ 100 ms",
      p99 <= 100 && lost === 0,
    );
    results.figure("(a) commit → message on the stream: p50", ms(p50));
    results.figure("(a) messages received", `${count(delivered)} of ${count(committed.size)}`);
    results.figure("(a) memory per open stream", `${perStreamKb.toFixed(1)} KB`, "≤ 50 KB", perStreamKb <= 50);
    const pollP50 = percentile(polls, 50);
    results.figure(`(b) empty poll at ${count(EVENTS)} events: p50`, ms(pollP50), "≤ 20 ms", pollP50 <= 20);
    results.figure(`(b) empty poll at ${count(EVENTS)} events: p99`, ms(percentile(polls, 99)));
    const rate = (x: number) => `${count(Math.round(x))} events/s`;
    results.figure(
      `(c) catch-up of ${count(pageEvents)} events by pages of 1,000`,
      rate(pagesRate),
      "≥ 20,000 events/s",
      pagesRate >= 20_000,
    );
    results.figure(
      `(c) catch-up of ${count(pageEvents)} events by the stream`,
      rate(streamRate),
      "≥ 20,000 events/s",
      streamRate >= 20_000,
    );
    const errors = loggedErrors(service.output());
    if (errors.length > 0)
      console.log(`bench:live: ${errors.length} errors logged, so no result file; first: ${errors[0]}`);
    else results.save();
  } finally {
    for (const s of streams) s.close();
    await sql.end();
    await service.stop();
    database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
