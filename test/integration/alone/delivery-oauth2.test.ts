// @module-tag embedded
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { startHttpDelivery, type HttpDelivery } from "@/test/helpers/http-delivery-fixture";

// HTTP_POST deliveries with OAuth 2.0 credentials (a subscription's oauth2): the worker sends the
// access token, refreshes it on a 401 at the receiver's token endpoint, and shares one refresh among
// many refused sends. Alone (one file at a time, docs/testing.md#alone): one test holds a row lock in an
// open transaction while the worker waits for it, and an open writing transaction anywhere on the
// PostgreSQL server holds back every other test's event feed (its horizon is the server's oldest
// running transaction).

let fx: HttpDelivery;

beforeAll(async () => {
  fx = await startHttpDelivery("delivery-oauth2");
});

afterAll(async () => {
  await fx?.stop();
});

describe("HTTP_POST delivery with oauth2", () => {
  it("oauth2: Bearer first; on 401 refreshes at redirect_uri, stores the new tokens and resends at once", async () => {
    fx.receiver.route("/hook/oauth", (req) =>
      req.headers.authorization === "Bearer fresh-access" ? { status: 200 } : { status: 401 },
    );
    fx.receiver.route("/oauth/refresh", (req) =>
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
      redirect_uri: `${fx.receiver.url}/oauth/refresh`,
    };
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/oauth`, oauth2 }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => (await fx.rowStatus(id!)) === "DELIVERED", { what: "DELIVERED" });
    const posts = fx.receiver.on("/hook/oauth");
    expect(posts.map((p) => p.headers.authorization)).toEqual(["Bearer stale-access", "Bearer fresh-access"]);
    expect(fx.receiver.on("/oauth/refresh")).toHaveLength(1);
    expect(fx.receiver.on("/oauth/refresh")[0]!.method).toBe("POST");
    expect((await fx.deliveryRow(sub.deliveryIds[0]!)).oauth2).toMatchObject({
      access_token: "fresh-access",
      refresh_token: "new-refresh",
      client_id: "cid",
    });
    expect((await fx.attemptsOf(id!)).map((a) => a.outcome)).toEqual(["REFRESHED", "DELIVERED"]);
  });

  it("oauth2: a failing refresh deactivates the delivery with the reason", async () => {
    fx.receiver.route("/hook/oauth-bad", () => ({ status: 401 }));
    fx.receiver.route("/oauth/refresh-bad", () => ({ status: 400, body: '{"error":"invalid_grant"}' }));
    const oauth2 = {
      access_token: "a",
      client_id: "c",
      client_secret: "s",
      refresh_token: "r",
      redirect_uri: `${fx.receiver.url}/oauth/refresh-bad`,
    };
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/oauth-bad`, oauth2 }]);
    const [id] = await fx.notify(sub);
    await waitFor(async () => (await fx.rowStatus(id!)) === "FAILED", { what: "FAILED" });
    const delivery = await fx.deliveryRow(sub.deliveryIds[0]!);
    expect(delivery.active).toBe(false);
    expect(delivery.deactivation_reason).toMatch(/token refresh failed .*HTTP 400/);
  });

  /** A receiver whose token endpoint rotates refresh tokens: each is accepted once, and its webhook takes only the newest access token. */
  function rotatingReceiver(name: string) {
    const state = { access: "never-issued", refresh: "refresh-0", issued: 0 };
    fx.receiver.route(`/hook/${name}`, (req) =>
      req.headers.authorization === `Bearer ${state.access}` ? { status: 200 } : { status: 401 },
    );
    fx.receiver.route(`/oauth/${name}`, (req) => {
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
      redirect_uri: `${fx.receiver.url}/oauth/${name}`,
    };
    return { state, oauth2 };
  }

  it("oauth2: 100 sends refused at once refresh the token once and all take the new one; a receiver that rotates refresh tokens keeps the delivery", async () => {
    const { state, oauth2 } = rotatingReceiver("rotating");
    const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/rotating`, oauth2 }]);
    const ids = await fx.notify(sub, 100);
    await waitFor(
      async () =>
        (
          await fx.db
            .sql`select 1 from notification_deliveries where delivery_id = ${sub.deliveryIds[0]!} and status = 'PENDING'`
        ).length === 0,
      { what: "100 sent", timeoutMs: 60_000 },
    );
    const statuses = await fx.db.sql<
      { status: string; n: number }[]
    >`select status, count(*)::int as n from notification_deliveries where delivery_id = ${sub.deliveryIds[0]!} group by status`;
    expect(statuses).toEqual([{ status: "DELIVERED", n: 100 }]);

    expect(fx.receiver.on("/oauth/rotating")).toHaveLength(1);
    expect(state.issued).toBe(1);
    const posts = fx.receiver.on("/hook/rotating");
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
    const delivery = await fx.deliveryRow(sub.deliveryIds[0]!);
    expect(delivery).toMatchObject({
      active: true,
      deactivation_reason: null,
      oauth2: { access_token: "access-1", refresh_token: "refresh-1", client_id: "cid", client_secret: "csecret" },
    });
    const outcomes = await fx.db.sql<{ outcomes: string[] }[]>`
      select array_agg(outcome order by id) as outcomes from delivery_attempts where delivery_id = ${sub.deliveryIds[0]!} group by notification_id`;
    expect(outcomes).toHaveLength(100);
    for (const row of outcomes) expect(row.outcomes).toEqual(["REFRESHED", "DELIVERED"]);
  });

  // On the embedded database a transaction holds the whole backend, so the worker could not even
  // claim its rows while this test's transaction is open: PostgreSQL only.
  it.skipIf(inject("embedded"))(
    "oauth2: sends refused while another process holds the delivery's credentials wait for it, then take the token it stored instead of refreshing",
    async () => {
      const { state, oauth2 } = rotatingReceiver("held");
      const sub = await fx.subscribe([{ type: "HTTP_POST", postUrl: `${fx.receiver.url}/hook/held`, oauth2 }]);
      const deliveryId = sub.deliveryIds[0]!;
      let ids: number[] = [];
      // This test's connection plays another worker in the middle of a refresh: it holds the row
      // lock a refresh takes and, once the worker's refused sends wait for it, stores the pair the
      // token endpoint gave it.
      await fx.db.sql.begin(async (tx) => {
        await tx`select 1 from subscription_deliveries where id = ${deliveryId} for no key update`;
        ids = await fx.notify(sub, 20);
        await waitFor(async () => fx.receiver.on("/hook/held").length >= ids.length && true, {
          what: "20 refused sends",
        });
        await waitFor(
          async () =>
            (
              await fx.db
                .sql`select 1 from pg_stat_activity where application_name = 'wayline' and wait_event_type = 'Lock'
                  and query ilike '%from "subscription_deliveries"%for no key update%'`
            ).length > 0,
          { what: "the worker waiting for the credentials' lock" },
        );
        Object.assign(state, { access: "access-elsewhere", refresh: "refresh-elsewhere" });
        await tx`update subscription_deliveries set oauth2 =
          ${tx.json({ ...oauth2, access_token: "access-elsewhere", refresh_token: "refresh-elsewhere" })}
          where id = ${deliveryId}`;
      });
      await waitFor(
        async () =>
          (
            await fx.db
              .sql`select 1 from notification_deliveries where delivery_id = ${deliveryId} and status <> 'DELIVERED'`
          ).length === 0,
        { what: "20 DELIVERED" },
      );
      expect(fx.receiver.on("/oauth/held")).toHaveLength(0);
      const resent = fx.receiver
        .on("/hook/held")
        .filter((p) => p.headers.authorization === "Bearer access-elsewhere")
        .map((p) => Number(p.headers["webhook-id"]));
      expect([...resent].sort((a, b) => a - b)).toEqual(ids);
      expect(await fx.deliveryRow(deliveryId)).toMatchObject({
        active: true,
        oauth2: { access_token: "access-elsewhere", refresh_token: "refresh-elsewhere" },
      });
      const [attempt] = await fx.attemptsOf(ids[0]!);
      expect(attempt).toMatchObject({
        outcome: "REFRESHED",
        http_status: 401,
        error: "HTTP 401: taking the access token refreshed meanwhile",
      });
    },
  );
});
