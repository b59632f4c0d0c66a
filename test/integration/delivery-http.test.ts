// @module-tag embedded
// @module-tag processes
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
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
} from "../helpers/delivery-fixture";
import { startHttpsReceiver, untrustedCertificate, verifyWebhook, type HttpsReceiver } from "../helpers/https-receiver";

// HTTP_POST deliveries end to end: PENDING rows in the database → the worker process → a real
// HTTPS receiver on loopback whose certificate comes from the test's CA.

let db: DeliveryDb;
let worker: WorkerProcess;
let receiver: HttpsReceiver;
let app: { appId: number; signingSecret: string; clientId: string };

beforeAll(async () => {
  db = await deliveryDatabase("delivery-http");
  worker = startWorkerProcess(db.workerEnv());
  await worker.ready;
  receiver = await startHttpsReceiver({ ca: db.ca });
  app = await seedApp(db);
}, 90_000);

afterAll(async () => {
  if (process.env.DEBUG_WORKER) console.error(worker?.output());
  if (worker) await stopWorkerProcess(worker);
  await receiver?.close();
  await db?.close();
});

async function subscribe(deliveries: Parameters<typeof createSubscription>[1]["deliveries"]) {
  return createSubscription(db.sql, { appId: app.appId, clientId: app.clientId, deliveries });
}

async function notify(sub: { subscriptionId: number; deliveryIds: number[] }, count = 1) {
  return insertNotifications(db.sql, {
    appId: app.appId,
    clientId: app.clientId,
    subscriptionId: sub.subscriptionId,
    deliveryIds: sub.deliveryIds,
    count,
  });
}

const attemptsOf = (notificationId: number) =>
  db.sql<
    {
      outcome: string;
      http_status: number | null;
      target: string;
      error: string | null;
      signed_content: string | null;
      signature: string | null;
      latency_ms: number;
    }[]
  >`
    select outcome, http_status, target, error, signed_content, signature, latency_ms from delivery_attempts where notification_id = ${notificationId} order by id`;

const rowStatus = async (notificationId: number) =>
  (
    await db.sql<
      { status: string }[]
    >`select status from notification_deliveries where notification_id = ${notificationId}`
  )[0]?.status;

const deliveryRow = async (id: number) =>
  (
    await db.sql<
      { active: boolean; deactivation_reason: string | null; post_url: string; oauth2: Record<string, string> | null }[]
    >`select active, deactivation_reason, post_url, oauth2 from subscription_deliveries where id = ${id}`
  )[0]!;

describe("HTTP_POST delivery", () => {
  it("POSTs the notification as signed JSON with the postHeaders; the receiver verifies it with standardwebhooks", async () => {
    const sub = await subscribe([
      { type: "HTTP_POST", postUrl: `${receiver.url}/hook/basic?tenant=7`, postHeaders: { "X-Partner-Key": "k-123" } },
    ]);
    const [id] = await notify(sub);
    const req = await waitFor(async () => receiver.on("/hook/basic")[0], { what: "the webhook" });
    expect(req.method).toBe("POST");
    expect(req.query.get("tenant")).toBe("7");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-partner-key"]).toBe("k-123");
    expect(req.headers["webhook-id"]).toBe(String(id));
    const payload = verifyWebhook(app.signingSecret, req) as Record<string, unknown>;
    expect(payload).toMatchObject({
      id,
      subscriptionId: sub.subscriptionId,
      _domain: "wayline",
      _type: "WAYPOINT",
      _name: "WAYPOINT",
      httpStatusCode: 0,
      creatorClientId: app.clientId,
    });
    expect(payload.recordedWaypoint).toMatchObject({ latitude: expect.any(Number), longitude: -82.99 });
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, req)).toThrow();

    await waitFor(async () => (await rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    const [attempt] = await attemptsOf(id!);
    expect(attempt).toMatchObject({
      outcome: "DELIVERED",
      http_status: 200,
      target: `${receiver.url}/hook/basic?tenant=7`,
    });
    // The console can show exactly what was signed and the header sent.
    expect(attempt!.signed_content).toBe(`${id}.${req.headers["webhook-timestamp"]}.${req.body}`);
    expect(attempt!.signature).toBe(req.headers["webhook-signature"]);
    const [n] = await db.sql<
      { http_status_code: number }[]
    >`select http_status_code from notifications where id = ${id!}`;
    expect(n!.http_status_code).toBe(200);
  });

  it("signs with every unexpired secret during a rotation: both verify", async () => {
    const newer = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    await db.sql`insert into app_signing_secrets (app_id, secret) values (${app.appId}, ${newer})`;
    try {
      const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/rotation` }]);
      await notify(sub);
      const req = await waitFor(async () => receiver.on("/hook/rotation")[0], { what: "the webhook" });
      expect(req.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(verifyWebhook(app.signingSecret, req)).toBeTruthy();
      expect(verifyWebhook(newer, req)).toBeTruthy();
    } finally {
      await db.sql`delete from app_signing_secrets where secret = ${newer}`;
    }
  });

  it("301 moves the delivery's postUrl to Location and resends there", async () => {
    receiver.route("/hook/old", () => ({ status: 301, headers: { location: "/hook/new" } }));
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/old` }]);
    const [id] = await notify(sub);
    await waitFor(async () => receiver.on("/hook/new")[0], { what: "the resend" });
    await waitFor(async () => (await rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    expect((await deliveryRow(sub.deliveryIds[0]!)).post_url).toBe(`${receiver.url}/hook/new`);
    expect((await attemptsOf(id!)).map((a) => [a.outcome, a.http_status])).toEqual([
      ["REDIRECTED", 301],
      ["DELIVERED", 200],
    ]);
  });

  it("307 resends once to Location without changing postUrl", async () => {
    receiver.route("/hook/temp", () => ({ status: 307, headers: { location: `${receiver.url}/hook/temp-target` } }));
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/temp` }]);
    const [id] = await notify(sub);
    await waitFor(async () => (await rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    expect(receiver.on("/hook/temp-target")).toHaveLength(1);
    expect((await deliveryRow(sub.deliveryIds[0]!)).post_url).toBe(`${receiver.url}/hook/temp`);
  });

  it("404 deactivates the delivery with the status and time, and its later notifications are not sent", async () => {
    receiver.route("/hook/gone", () => ({ status: 404, body: '{"error":"no such hook"}' }));
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/gone` }]);
    const [id] = await notify(sub);
    await waitFor(async () => (await rowStatus(id!)) === "FAILED", { what: "FAILED" });
    const delivery = await deliveryRow(sub.deliveryIds[0]!);
    expect(delivery.active).toBe(false);
    expect(delivery.deactivation_reason).toMatch(/HTTP 404 at \d{4}-\d{2}-\d{2}T/);
    const [attempt] = await attemptsOf(id!);
    expect(attempt).toMatchObject({ outcome: "DEACTIVATED", http_status: 404 });
    const [later] = await notify(sub);
    await waitFor(async () => (await rowStatus(later!)) === "FAILED", { what: "the later row FAILED" });
    expect(receiver.on("/hook/gone")).toHaveLength(1);
  });

  it("503 and 429 (Retry-After) are retried with backoff until the receiver accepts", async () => {
    let calls = 0;
    receiver.route("/hook/flaky", () => {
      calls++;
      if (calls === 1) return { status: 503 };
      if (calls === 2) return { status: 429, headers: { "retry-after": "2" } };
      return { status: 204 };
    });
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/flaky` }]);
    const [id] = await notify(sub);
    await waitFor(async () => (await rowStatus(id!)) === "DELIVERED", { what: "DELIVERED", timeoutMs: 30_000 });
    const attempts = await attemptsOf(id!);
    expect(attempts.map((a) => [a.outcome, a.http_status])).toEqual([
      ["RETRY", 503],
      ["RETRY", 429],
      ["DELIVERED", 204],
    ]);
    const times = receiver.on("/hook/flaky").map((r) => r.receivedAt);
    // DELIVERY_RETRY_SCALE=0.001 here: 5 s → 5 ms; Retry-After 2 s → 2 ms would be too soon for
    // "at least", so only the order and the schedule's floor are checked.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(3);
    const [n] = await db.sql<
      { http_status_code: number }[]
    >`select http_status_code from notifications where id = ${id!}`;
    expect(n!.http_status_code).toBe(204);
  });

  it("a connection refused is retried, and delivered once the receiver is up", async () => {
    const late = await startHttpsReceiver({ ca: db.ca });
    const url = `${late.url}/hook/late`;
    await late.close();
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: url }]);
    const [id] = await notify(sub);
    await waitFor(async () => (await attemptsOf(id!)).length >= 2 && true, { what: "two failed attempts" });
    const attempts = await attemptsOf(id!);
    expect(attempts[0]).toMatchObject({ outcome: "RETRY", http_status: null });
    expect(attempts[0]!.error).toMatch(/ECONNREFUSED/);
    // Point the delivery at the live receiver: the next retry gets through.
    await db.sql`update subscription_deliveries set post_url = ${`${receiver.url}/hook/late`} where id = ${sub.deliveryIds[0]!}`;
    await waitFor(async () => (await rowStatus(id!)) === "DELIVERED", { what: "DELIVERED", timeoutMs: 30_000 });
  });

  it("a certificate from an untrusted CA is not delivered to", async () => {
    const rogue = await startHttpsReceiver({ ca: db.ca, tlsOverride: untrustedCertificate(`${db.dir}/rogue`) });
    try {
      const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${rogue.url}/hook/rogue` }]);
      const [id] = await notify(sub);
      const [attempt] = await waitFor(
        async () => {
          const a = await attemptsOf(id!);
          return a.length > 0 && a;
        },
        { what: "an attempt" },
      );
      expect(attempt!.outcome).toBe("RETRY");
      expect(attempt!.error).toMatch(/certificate|self[- ]signed/i);
      expect(rogue.on("/hook/rogue")).toHaveLength(0);
    } finally {
      await rogue.close();
    }
  });

  it("a redirect to a refused address deactivates the delivery without connecting there", async () => {
    // A loopback listener that is not on the allow-list (127.0.0.1 is; 127.0.0.2 is not).
    const trap = await startHttpsReceiver({ ca: db.ca, host: "127.0.0.2" });
    try {
      receiver.route("/hook/sneaky", () => ({ status: 302, headers: { location: `${trap.url}/internal` } }));
      receiver.route("/hook/sneaky-301", () => ({
        status: 301,
        headers: { location: `https://0x7f000002:${trap.port}/internal` },
      }));
      const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/sneaky` }]);
      const moved = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/sneaky-301` }]);
      const [id] = await notify(sub);
      const [id2] = await notify(moved);
      await waitFor(async () => (await rowStatus(id!)) === "FAILED" && (await rowStatus(id2!)) === "FAILED", {
        what: "FAILED",
      });
      expect(trap.connections()).toBe(0);
      expect((await deliveryRow(sub.deliveryIds[0]!)).deactivation_reason).toMatch(/Target refused .*127\.0\.0\.2/);
      // The refused Location was not stored as the new postUrl.
      expect((await deliveryRow(moved.deliveryIds[0]!)).post_url).toBe(`${receiver.url}/hook/sneaky-301`);
      expect((await attemptsOf(id!)).map((a) => a.outcome)).toEqual(["REDIRECTED", "DEACTIVATED"]);
    } finally {
      await trap.close();
    }
  });

  it("oauth2: Bearer first; on 401 refreshes at redirect_uri, stores the new tokens and resends at once", async () => {
    receiver.route("/hook/oauth", (req) =>
      req.headers.authorization === "Bearer fresh-access" ? { status: 200 } : { status: 401 },
    );
    receiver.route("/oauth/refresh", (req) =>
      req.query.get("grant_type") === "refresh_token" &&
      req.query.get("client_id") === "cid" &&
      req.query.get("client_secret") === "csecret" &&
      req.query.get("refresh_token") === "old-refresh"
        ? {
            status: 200,
            body: JSON.stringify({ access_token: "fresh-access", refresh_token: "new-refresh", token_type: "bearer" }),
          }
        : { status: 400, body: '{"error":"invalid_grant"}' },
    );
    const oauth2 = {
      access_token: "stale-access",
      client_id: "cid",
      client_secret: "csecret",
      refresh_token: "old-refresh",
      redirect_uri: `${receiver.url}/oauth/refresh`,
    };
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/oauth`, oauth2 }]);
    const [id] = await notify(sub);
    await waitFor(async () => (await rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    const posts = receiver.on("/hook/oauth");
    expect(posts.map((p) => p.headers.authorization)).toEqual(["Bearer stale-access", "Bearer fresh-access"]);
    expect(receiver.on("/oauth/refresh")).toHaveLength(1);
    expect(receiver.on("/oauth/refresh")[0]!.method).toBe("POST");
    expect((await deliveryRow(sub.deliveryIds[0]!)).oauth2).toMatchObject({
      access_token: "fresh-access",
      refresh_token: "new-refresh",
      client_id: "cid",
    });
    expect((await attemptsOf(id!)).map((a) => a.outcome)).toEqual(["REFRESHED", "DELIVERED"]);
  });

  it("oauth2: a failing refresh deactivates the delivery with the reason", async () => {
    receiver.route("/hook/oauth-bad", () => ({ status: 401 }));
    receiver.route("/oauth/refresh-bad", () => ({ status: 400, body: '{"error":"invalid_grant"}' }));
    const oauth2 = {
      access_token: "a",
      client_id: "c",
      client_secret: "s",
      refresh_token: "r",
      redirect_uri: `${receiver.url}/oauth/refresh-bad`,
    };
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/oauth-bad`, oauth2 }]);
    const [id] = await notify(sub);
    await waitFor(async () => (await rowStatus(id!)) === "FAILED", { what: "FAILED" });
    const delivery = await deliveryRow(sub.deliveryIds[0]!);
    expect(delivery.active).toBe(false);
    expect(delivery.deactivation_reason).toMatch(/token refresh failed .*HTTP 400/);
  });

  /** A receiver whose token endpoint rotates refresh tokens: each is accepted once, and its webhook takes only the newest access token. */
  function rotatingReceiver(name: string) {
    const state = { access: "never-issued", refresh: "refresh-0", issued: 0 };
    receiver.route(`/hook/${name}`, (req) =>
      req.headers.authorization === `Bearer ${state.access}` ? { status: 200 } : { status: 401 },
    );
    receiver.route(`/oauth/${name}`, (req) => {
      if (
        req.query.get("client_id") !== "cid" ||
        req.query.get("client_secret") !== "csecret" ||
        req.query.get("refresh_token") !== state.refresh
      ) {
        return { status: 400, body: '{"error":"invalid_grant"}' };
      }
      state.issued++;
      state.access = `access-${state.issued}`;
      state.refresh = `refresh-${state.issued}`;
      // Answered a little later, so the other sends' 401s come in while it is under way.
      return {
        status: 200,
        body: JSON.stringify({
          access_token: state.access,
          refresh_token: state.refresh,
          token_type: "bearer",
          expires_in: 3600,
        }),
        delayMs: 100,
      };
    });
    const oauth2 = {
      access_token: "stale-access",
      client_id: "cid",
      client_secret: "csecret",
      refresh_token: "refresh-0",
      redirect_uri: `${receiver.url}/oauth/${name}`,
    };
    return { state, oauth2 };
  }

  it("oauth2: 100 sends refused at once refresh the token once and all take the new one; a receiver that rotates refresh tokens keeps the delivery", async () => {
    const { state, oauth2 } = rotatingReceiver("rotating");
    const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/rotating`, oauth2 }]);
    const ids = await notify(sub, 100);
    await waitFor(
      async () =>
        (
          await db.sql`select 1 from notification_deliveries where delivery_id = ${sub.deliveryIds[0]!} and status = 'PENDING'`
        ).length === 0,
      { what: "100 sent", timeoutMs: 60_000 },
    );
    const statuses = await db.sql<
      { status: string; n: number }[]
    >`select status, count(*)::int as n from notification_deliveries where delivery_id = ${sub.deliveryIds[0]!} group by status`;
    expect(statuses).toEqual([{ status: "DELIVERED", n: 100 }]);

    expect(receiver.on("/oauth/rotating")).toHaveLength(1);
    expect(state.issued).toBe(1);
    const posts = receiver.on("/hook/rotating");
    // Every one was refused first (one job, all sent at once with the stored token), then sent once with the new token.
    for (const [token, count] of [
      ["Bearer stale-access", 100],
      ["Bearer access-1", 100],
    ] as const) {
      const seen = posts.filter((p) => p.headers.authorization === token).map((p) => Number(p.headers["webhook-id"]));
      expect(seen, token).toHaveLength(count);
      expect(
        [...seen].sort((a, b) => a - b),
        token,
      ).toEqual(ids);
    }
    const delivery = await deliveryRow(sub.deliveryIds[0]!);
    expect(delivery).toMatchObject({
      active: true,
      deactivation_reason: null,
      oauth2: { access_token: "access-1", refresh_token: "refresh-1", client_id: "cid", client_secret: "csecret" },
    });
    const outcomes = await db.sql<{ outcomes: string[] }[]>`
      select array_agg(outcome order by id) as outcomes from delivery_attempts where delivery_id = ${sub.deliveryIds[0]!} group by notification_id`;
    expect(outcomes).toHaveLength(100);
    for (const row of outcomes) expect(row.outcomes).toEqual(["REFRESHED", "DELIVERED"]);
  }, 90_000);

  // On the embedded database a transaction holds the whole backend, so the worker could not even
  // claim its rows while this test's transaction is open: PostgreSQL only.
  it.skipIf(inject("embedded"))(
    "oauth2: sends refused while another process holds the delivery's credentials wait for it, then take the token it stored instead of refreshing",
    async () => {
      const { state, oauth2 } = rotatingReceiver("held");
      const sub = await subscribe([{ type: "HTTP_POST", postUrl: `${receiver.url}/hook/held`, oauth2 }]);
      const deliveryId = sub.deliveryIds[0]!;
      let ids: number[] = [];
      // This test's connection plays another worker in the middle of a refresh: it holds the row
      // lock a refresh takes and, once the worker's refused sends wait for it, stores the pair the
      // token endpoint gave it.
      await db.sql.begin(async (tx) => {
        await tx`select 1 from subscription_deliveries where id = ${deliveryId} for no key update`;
        ids = await notify(sub, 20);
        await waitFor(async () => receiver.on("/hook/held").length >= ids.length && true, { what: "20 refused sends" });
        await waitFor(
          async () =>
            (
              await db.sql`select 1 from pg_stat_activity where application_name = 'wayline' and wait_event_type = 'Lock' and query ilike '%from "subscription_deliveries"%for no key update%'`
            ).length > 0,
          { what: "the worker waiting for the credentials' lock" },
        );
        Object.assign(state, { access: "access-elsewhere", refresh: "refresh-elsewhere" });
        await tx`update subscription_deliveries set oauth2 = ${tx.json({ ...oauth2, access_token: "access-elsewhere", refresh_token: "refresh-elsewhere" })} where id = ${deliveryId}`;
      });
      await waitFor(
        async () =>
          (
            await db.sql`select 1 from notification_deliveries where delivery_id = ${deliveryId} and status <> 'DELIVERED'`
          ).length === 0,
        { what: "20 DELIVERED" },
      );
      expect(receiver.on("/oauth/held")).toHaveLength(0);
      const resent = receiver
        .on("/hook/held")
        .filter((p) => p.headers.authorization === "Bearer access-elsewhere")
        .map((p) => Number(p.headers["webhook-id"]));
      expect([...resent].sort((a, b) => a - b)).toEqual(ids);
      expect(await deliveryRow(deliveryId)).toMatchObject({
        active: true,
        oauth2: { access_token: "access-elsewhere", refresh_token: "refresh-elsewhere" },
      });
      const [attempt] = await attemptsOf(ids[0]!);
      expect(attempt).toMatchObject({
        outcome: "REFRESHED",
        http_status: 401,
        error: "HTTP 401: taking the access token refreshed meanwhile",
      });
    },
  );

  it("a burst of 300 notifications × 2 deliveries arrives complete, once each", async () => {
    const sub = await subscribe([
      { type: "HTTP_POST", postUrl: `${receiver.url}/hook/burst-a` },
      { type: "HTTP_POST", postUrl: `${receiver.url}/hook/burst-b` },
    ]);
    const ids = await notify(sub, 300);
    await waitFor(
      async () => receiver.on("/hook/burst-a").length + receiver.on("/hook/burst-b").length >= 600 && true,
      { what: "600 webhooks", timeoutMs: 60_000 },
    );
    for (const hook of ["/hook/burst-a", "/hook/burst-b"]) {
      const seen = receiver.on(hook).map((r) => Number(r.headers["webhook-id"]));
      expect(new Set(seen).size).toBe(300);
      expect(seen.length).toBe(300);
      expect([...seen].sort((a, b) => a - b)).toEqual(ids);
    }
  });
});
