// @module-tag embedded
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { startHttpDelivery, type HttpDelivery } from "@/test/helpers/http-delivery-fixture";
import { startHttpsReceiver, untrustedCertificate, verifyWebhook } from "@/test/helpers/https-receiver";

// HTTP_POST deliveries end to end: PENDING rows in the database → the worker process → a real
// HTTPS receiver on loopback whose certificate comes from the test's CA. (Deliveries with OAuth 2.0
// credentials: delivery-oauth2.test.ts.)

let fx: HttpDelivery;

beforeAll(async () => {
  fx = await startHttpDelivery("delivery-http");
});

afterAll(async () => {
  await fx?.stop();
});

describe("HTTP_POST delivery", () => {
  it("POSTs the notification as signed JSON with the postHeaders; the receiver verifies it with standardwebhooks", async () => {
    const sub = await fx.subscribe([
      {
        type: "HTTP_POST",
        postUrl: `${fx.receiver.url}/hook/basic?tenant=7`,
        postHeaders: { "X-Partner-Key": "k-123" },
      },
    ]);
    const [id] = await fx.notify(sub);
    const req = await waitFor(async () => fx.receiver.on("/hook/basic")[0], { what: "the webhook" });
    expect(req.method).toBe("POST");
    expect(req.query.get("tenant")).toBe("7");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["x-partner-key"]).toBe("k-123");
    expect(req.headers["webhook-id"]).toBe(String(id));
    const payload = verifyWebhook(fx.app.signingSecret, req) as Record<string, unknown>;
    expect(payload).toMatchObject({
      id,
      subscriptionId: sub.subscriptionId,
      _domain: "wayline",
      _type: "WAYPOINT",
      _name: "WAYPOINT",
      httpStatusCode: 0,
      creatorClientId: fx.app.clientId,
    });
    expect(payload.recordedWaypoint).toMatchObject({ latitude: expect.any(Number), longitude: -82.99 });
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, req)).toThrow();

    await waitFor(async () => (await fx.rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    const [attempt] = await fx.attemptsOf(id!);
    expect(attempt).toMatchObject({
      outcome: "DELIVERED",
      http_status: 200,
      target: `${fx.receiver.url}/hook/basic?tenant=7`,
    });
    // The console can show exactly what was signed and the header sent.
    expect(attempt!.signed_content).toBe(`${id}.${req.headers["webhook-timestamp"]}.${req.body}`);
    expect(attempt!.signature).toBe(req.headers["webhook-signature"]);
    const [n] = await fx.db.sql<
      { http_status_code: number }[]
    >`select http_status_code from notifications where id = ${id!}`;
    expect(n!.http_status_code).toBe(200);
  });

  it("signs with every unexpired secret during a rotation: both verify", async () => {
    const newer = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    await fx.db.sql`insert into app_signing_secrets (app_id, secret) values (${fx.app.appId}, ${newer})`;
    try {
      const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/rotation` }]);
      await fx.notify(sub);
      const req = await waitFor(async () => fx.receiver.on("/hook/rotation")[0], { what: "the webhook" });
      expect(req.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(verifyWebhook(fx.app.signingSecret, req)).toBeTruthy();
      expect(verifyWebhook(newer, req)).toBeTruthy();
    } finally {
      await fx.db.sql`delete from app_signing_secrets where secret = ${newer}`;
    }
  });

  it("301 moves the delivery's postUrl to Location and resends there", async () => {
    fx.receiver.route("/hook/old", () => ({ status: 301, headers: { location: "/hook/new" } }));
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/old` }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => fx.receiver.on("/hook/new")[0], { what: "the resend" });
    await waitFor(async () => (await fx.rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    expect((await fx.deliveryRow(sub.deliveryIds[0]!)).post_url).toBe(`${fx.receiver.url}/hook/new`);
    expect((await fx.attemptsOf(id!)).map((a) => [a.outcome, a.http_status])).toEqual([
      ["REDIRECTED", 301],
      ["DELIVERED", 200],
    ]);
  });

  it("307 resends once to Location without changing postUrl", async () => {
    fx.receiver.route("/hook/temp", () => ({
      status: 307,
      headers: { location: `${fx.receiver.url}/hook/temp-target` },
    }));
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/temp` }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => (await fx.rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    expect(fx.receiver.on("/hook/temp-target")).toHaveLength(1);
    expect((await fx.deliveryRow(sub.deliveryIds[0]!)).post_url).toBe(`${fx.receiver.url}/hook/temp`);
  });

  it("404 deactivates the delivery with the status and time, and its later notifications are not sent", async () => {
    fx.receiver.route("/hook/gone", () => ({ status: 404, body: '{"error":"no such hook"}' }));
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/gone` }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => (await fx.rowStatus(id!)) === "FAILED", { what: "FAILED" });
    const delivery = await fx.deliveryRow(sub.deliveryIds[0]!);
    expect(delivery.active).toBe(false);
    expect(delivery.deactivation_reason).toMatch(/HTTP 404 at \d{4}-\d{2}-\d{2}T/);
    const [attempt] = await fx.attemptsOf(id!);
    expect(attempt).toMatchObject({ outcome: "DEACTIVATED", http_status: 404 });
    const [later] = await fx.notify(sub);
    await waitFor(async () => (await fx.rowStatus(later!)) === "FAILED", { what: "the later row FAILED" });
    expect(fx.receiver.on("/hook/gone")).toHaveLength(1);
  });

  it("503 and 429 (Retry-After) are retried with backoff until the receiver accepts", async () => {
    let calls = 0;
    fx.receiver.route("/hook/flaky", () => {
      calls++;
      if (calls === 1) return { status: 503 };
      if (calls === 2) return { status: 429, headers: { "retry-after": "2" } };
      return { status: 204 };
    });
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/flaky` }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => (await fx.rowStatus(id!)) === "DELIVERED", { what: "DELIVERED", timeoutMs: 30_000 });
    const attempts = await fx.attemptsOf(id!);
    expect(attempts.map((a) => [a.outcome, a.http_status])).toEqual([
      ["RETRY", 503],
      ["RETRY", 429],
      ["DELIVERED", 204],
    ]);
    const times = fx.receiver.on("/hook/flaky").map((r) => r.receivedAt);
    // DELIVERY_RETRY_SCALE=0.001 here: 5 s → 5 ms; Retry-After 2 s → 2 ms would be too soon for
    // "at least", so only the order and the schedule's floor are checked.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(3);
    const [n] = await fx.db.sql<
      { http_status_code: number }[]
    >`select http_status_code from notifications where id = ${id!}`;
    expect(n!.http_status_code).toBe(204);
  });

  it("a connection refused is retried, and delivered once the receiver is up", async () => {
    const late = await startHttpsReceiver({ ca: fx.db.ca });
    const url = `${late.url}/hook/late`;
    await late.close();
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: url }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => (await fx.attemptsOf(id!)).length >= 2 && true, { what: "two failed attempts" });
    const attempts = await fx.attemptsOf(id!);
    expect(attempts[0]).toMatchObject({ outcome: "RETRY", http_status: null });
    expect(attempts[0]!.error).toMatch(/ECONNREFUSED/);
    // Point the delivery at the live receiver: the next retry gets through.
    await fx.db
      .sql`update subscription_deliveries set post_url = ${`${fx.receiver.url}/hook/late`} where id = ${sub.deliveryIds[0]!}`;
    await waitFor(async () => (await fx.rowStatus(id!)) === "DELIVERED", { what: "DELIVERED", timeoutMs: 30_000 });
  });

  it("a certificate from an untrusted CA is not delivered to", async () => {
    const rogue = await startHttpsReceiver({ ca: fx.db.ca, tlsOverride: untrustedCertificate(`${fx.db.dir}/rogue`) });
    try {
      const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${rogue.url}/hook/rogue` }]);
      const [id] = await fx.notify(sub);
      const [attempt] = await waitFor(
        async () => {
          const a = await fx.attemptsOf(id!);
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
    const trap = await startHttpsReceiver({ ca: fx.db.ca, host: "127.0.0.2" });
    try {
      fx.receiver.route("/hook/sneaky", () => ({ status: 302, headers: { location: `${trap.url}/internal` } }));
      fx.receiver.route("/hook/sneaky-301", () => ({
        status: 301,
        headers: { location: `https://0x7f000002:${trap.port}/internal` },
      }));
      const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/sneaky` }]);
      const moved = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/sneaky-301` }]);
      const [id] = await fx.notify(sub);
      const [id2] = await fx.notify(moved);
      await waitFor(async () => (await fx.rowStatus(id!)) === "FAILED" && (await fx.rowStatus(id2!)) === "FAILED", {
        what: "FAILED",
      });
      expect(trap.connections()).toBe(0);
      expect((await fx.deliveryRow(sub.deliveryIds[0]!)).deactivation_reason).toMatch(/Target refused .*127\.0\.0\.2/);
      // The refused Location was not stored as the new postUrl.
      expect((await fx.deliveryRow(moved.deliveryIds[0]!)).post_url).toBe(`${fx.receiver.url}/hook/sneaky-301`);
      expect((await fx.attemptsOf(id!)).map((a) => a.outcome)).toEqual(["REDIRECTED", "DEACTIVATED"]);
    } finally {
      await trap.close();
    }
  });

  // Once each as the worker counts it: every row delivered by exactly one attempt. The receiver may see
  // a copy more of a webhook only where the worker recorded an attempt that got no answer (on a busy
  // machine, 600 sends at once can outlast the 10 s timeout after the receiver took the request):
  // delivery is at least once, and receivers dedupe by webhook-id (docs/delivery.md#retries).
  it("a burst of 300 notifications × 2 deliveries arrives complete, once each", async () => {
    const sub = await fx.subscribe([
      { type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/burst-a` },
      { type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/burst-b` },
    ]);
    const ids = await fx.notify(sub, 300);
    await waitFor(
      async () => {
        const [row] = await fx.db.sql<{ pending: number }[]>`
          select count(*)::int as pending from notification_deliveries
           where notification_id = any(${ids}::bigint[]) and status <> 'DELIVERED'`;
        return row!.pending === 0;
      },
      { what: "600 rows delivered", timeoutMs: 100_000 },
    );
    const attempts = await fx.db.sql<
      { notification_id: string; target: string; delivered: number; unanswered: number }[]
    >`
      select notification_id, target,
             count(*) filter (where outcome = 'DELIVERED')::int as delivered,
             count(*) filter (where outcome <> 'DELIVERED' and http_status is null)::int as unanswered
        from delivery_attempts where notification_id = any(${ids}::bigint[]) group by 1, 2`;
    expect(attempts).toHaveLength(600);
    for (const hook of ["/hook/burst-a", "/hook/burst-b"]) {
      const copies = new Map<number, number>();
      for (const r of fx.receiver.on(hook)) {
        const id = Number(r.headers["webhook-id"]);
        copies.set(id, (copies.get(id) ?? 0) + 1);
      }
      expect([...copies.keys()].sort((a, b) => a - b)).toEqual(ids);
      const unexplained = attempts
        .filter((a) => a.target === `${fx.receiver.url}${hook}`)
        .filter((a) => a.delivered !== 1 || copies.get(Number(a.notification_id))! > 1 + a.unanswered);
      expect(unexplained).toEqual([]);
    }
  });
});
