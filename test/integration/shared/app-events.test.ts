// @module-tag embedded
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newAccountBody, request } from "@/test/helpers/api";
import { Browser, hiddenFields } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { waitFor } from "@/test/helpers/delivery-fixture";
import {
  startHttpsReceiverFor,
  verifyWebhook,
  type HttpsReceiver,
  type ReceivedRequest,
} from "@/test/helpers/https-receiver";
import { poolApp } from "@/test/helpers/pool";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Revocation that bites, and tells (docs/delivery.md#revocation, #app-events): on the pool's shared
// app with the delivery worker on, with a partner, an app and a real HTTPS receiver of its own. For
// each way an app loses an account (the driver's Revoke button, the app's own /oauth/revoke, a
// deletion through the API and through the driver site): every token of the grant fails at once, a
// delivery that was queued and retrying (the receiver answers 500) is never attempted again once the
// revocation answered, and the app's endpoint receives ACCESSREVOKED or ACCOUNTDELETED, signed, with
// exactly four fields, also in the app's event feed.

let receiver: HttpsReceiver;
let partner: ConsolePartner;
let app: { appId: number; clientId: string; clientSecret: string };
let secret: string;
const ENDPOINT = "/app-events";

beforeAll(async () => {
  receiver = await startHttpsReceiverFor(poolApp("worker"));
  partner = await new ConsolePartner(base()).signUp();
  app = await partner.createApp();
  secret = String((await partner.ok("reveal-signing-secret", { appId: String(app.appId) })).reveal!.signingSecret);
  await partner.ok("set-app-event-endpoint", {
    appId: String(app.appId),
    environment: "sandbox",
    url: `${receiver.url}${ENDPOINT}`,
  });
});

afterAll(async () => {
  await receiver?.close();
});

const base = () => poolApp("worker").baseUrl;
const api = () => `${base()}/sandbox/api`;
const basic = () => `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`;
const form = { "Content-Type": "application/x-www-form-urlencoded" };

async function oauth(path: string, fields: Record<string, string>) {
  return request("POST", `${base()}${path}`, {
    body: new URLSearchParams(fields).toString(),
    headers: { ...form, Authorization: basic() },
  });
}

/** An account the app created, its tokens, and a vehicle whose webhook receiver keeps answering 500. */
async function accountWithRetryingDelivery(name: string) {
  const client = await oauth("/sandbox/oauth/token", { grant_type: "client_credentials" });
  expect(client.status, client.text).toBe(200);
  const clientToken = client.body.access_token as string;
  const body = newAccountBody();
  const account = await request("POST", `${api()}/account/`, { token: clientToken, json: body });
  expect(account.status, account.text).toBe(200);
  const accountId = account.body.account.id as number;
  const tokens = await oauth("/sandbox/oauth/token", {
    grant_type: "authorization_code",
    code: account.body.account.accessToken.code,
  });
  expect(tokens.status, tokens.text).toBe(200);
  const token = tokens.body.access_token as string;
  const vehicle = await request("POST", `${api()}/vehicle/`, { token, json: { label: name } });
  expect(vehicle.status, vehicle.text).toBe(200);
  const vehicleId = vehicle.body.vehicle.vehicleId as number;
  const hook = `/retry/${name}`;
  receiver.route(hook, () => ({ status: 500, body: '{"error":"try again"}' }));
  const sub = await request("POST", `${api()}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
    token,
    json: { postUrl: `${receiver.url}${hook}` },
  });
  expect(sub.status, sub.text).toBe(200);
  for (let i = 0; i < 3; i++) {
    const posted = await request("POST", `${api()}/vehicle/${vehicleId}/dataSet/`, {
      token,
      json: dataSet(new Date(Date.now() - 60_000 + i * 1000), "RUNNING", [waypoint(39.96 + i / 100, -82.99)]),
    });
    expect(posted.status, posted.text).toBe(200);
  }
  // Queued and retrying: each of the three notifications was tried, and at least one again.
  await waitFor(async () => (receiver.on(hook).length >= 4 ? true : undefined), {
    what: "retried deliveries",
    timeoutMs: 30_000,
  });
  return {
    accountId,
    clientToken,
    token,
    refresh: tokens.body.refresh_token as string,
    username: body.username as string,
    hook,
  };
}

async function apiStatus(token: string) {
  return (await request("GET", `${api()}/account/`, { token })).status;
}

/** The app event for the account, once it arrived: verified with standardwebhooks, its body. */
async function appEvent(type: string, accountId: number): Promise<{ req: ReceivedRequest; body: unknown }> {
  return waitFor(
    async () => {
      for (const req of receiver.on(ENDPOINT)) {
        const body = verifyWebhook(secret, req) as Record<string, unknown>;
        if (body._type === type && body.accountId === accountId) return { req, body };
      }
      return undefined;
    },
    { what: `${type} for account ${accountId}`, timeoutMs: 30_000 },
  );
}

/** After the revocation answered at `at`: the retrying receiver got nothing more, the app was told. */
async function expectSilenceAndEvent(t: { accountId: number; hook: string }, at: number, type: string) {
  const { req, body } = await appEvent(type, t.accountId);
  expect(body).toEqual({
    _type: type,
    _timestamp: expect.stringMatching(/^\d{8}T\d{6}\+0000$/),
    accountId: t.accountId,
    clientId: app.clientId,
  });
  // Give the worker time for further retries (5 ms, 300 ms, 1.8 s at this retry scale) before looking.
  await new Promise((r) => setTimeout(r, 2500));
  expect(receiver.on(t.hook).filter((r) => r.receivedAt > at)).toEqual([]);
  // In the app's feed too, with the webhook's id and body. Read until it is there: the feed hands out an
  // event once every older transaction on the PostgreSQL server has ended (server/notifications/feed.ts),
  // and another file's write can still be running.
  const client = await oauth("/sandbox/oauth/token", { grant_type: "client_credentials" });
  const event = await waitFor(
    async () => {
      const feed = await request("GET", `${api()}/eventFeed/?searchLimit=1000`, { token: client.body.access_token });
      expect(feed.status, feed.text).toBe(200);
      return (feed.body.events as Record<string, unknown>[]).find((e) => e.eventId === req.headers["webhook-id"]);
    },
    { what: `the ${type} event in the app's feed`, timeoutMs: 15_000, intervalMs: 50 },
  );
  const { eventId, cursor, ...rest } = event;
  expect(typeof cursor).toBe("string");
  expect(typeof eventId).toBe("string");
  expect(rest).toEqual(body);
}

describe("the app-event endpoint in the console", () => {
  it.each([
    ["http://receiver.partner.io/hook", "http"],
    ["https://localhost/hook", "localhost"],
    ["https://10.0.0.7/hook", "private address"],
    ["https://user:pw@receiver.partner.io/hook", "credentials"],
    ["https://127.1/hook", "odd IPv4 spelling"],
    ["https://receiver.example/hook", "reserved name"],
    ["not a url", "not a URL"],
  ])("%s (%s) → 400 with a field error on url, nothing saved", async (url) => {
    const res = await partner.action("set-app-event-endpoint", {
      appId: String(app.appId),
      environment: "sandbox",
      url,
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.fieldErrors.map((f: { fieldName: string }) => f.fieldName)).toEqual(["url"]);
  });

  it("another partner cannot set it → 404", async () => {
    const other = await new ConsolePartner(base()).signUp();
    const res = await other.action("set-app-event-endpoint", {
      appId: String(app.appId),
      environment: "sandbox",
      url: "https://receiver.partner.io/hook",
    });
    expect(res.status, res.text).toBe(404);
  });
});

describe("revocation that bites, and tells", () => {
  it("the driver's Revoke button: tokens fail, retrying deliveries stop, ACCESSREVOKED arrives", async () => {
    const t = await accountWithRetryingDelivery("site-revoke");
    const browser = new Browser(undefined, base());
    expect((await browser.signIn("sandbox", t.username, "correct-horse-1")).problem).toBeNull();
    const revoked = await browser.post(
      "/connected-apps/revoke",
      hiddenFields((await browser.get("/connected-apps")).text),
    );
    expect(revoked.status, revoked.text).toBe(303);
    const at = Date.now();
    expect(await apiStatus(t.token)).toBe(401);
    const refreshed = await oauth("/sandbox/oauth/token", { grant_type: "refresh_token", refresh_token: t.refresh });
    expect(refreshed.status).toBe(400);
    await expectSilenceAndEvent(t, at, "ACCESSREVOKED");
  });

  // The send gate (server/delivery/claims.ts): a batch that passed it holds its rows until its sends
  // are over, and the revocation's lock on those rows waits for that. PostgreSQL only: on the embedded
  // database the gate is the read alone (docs/decisions/0101-no-delivery-after-revocation.md).
  it.skipIf(inject("embedded"))(
    "a send in flight when the app revokes ends before the revocation answers; nothing is sent after it",
    async () => {
      const t = await accountWithRetryingDelivery("gate-revoke");
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const before = receiver.on(t.hook).length;
      receiver.route(t.hook, async () => {
        await held;
        return { status: 500, body: '{"error":"try again"}' };
      });
      await waitFor(async () => (receiver.on(t.hook).length > before ? true : undefined), {
        what: "a retry in flight",
        timeoutMs: 30_000,
      });
      let answered = false;
      const revoking = oauth("/sandbox/oauth/revoke", { token: t.refresh, token_type_hint: "refresh_token" }).then(
        (res) => {
          answered = true;
          return res;
        },
      );
      // A revocation that did not wait for the send answers within milliseconds.
      await new Promise((r) => setTimeout(r, 1000));
      expect(answered).toBe(false);
      release();
      const res = await revoking;
      expect(res.status, res.text).toBe(200);
      await expectSilenceAndEvent(t, Date.now(), "ACCESSREVOKED");
    },
  );

  it("the app's own /oauth/revoke of its refresh token: the grant ends, ACCESSREVOKED arrives", async () => {
    const t = await accountWithRetryingDelivery("app-revoke");
    const res = await oauth("/sandbox/oauth/revoke", { token: t.refresh, token_type_hint: "refresh_token" });
    expect(res.status, res.text).toBe(200);
    const at = Date.now();
    expect(await apiStatus(t.token)).toBe(401);
    expect((await request("GET", `${api()}/account/${t.accountId}`, { token: t.clientToken })).status).toBe(404);
    await expectSilenceAndEvent(t, at, "ACCESSREVOKED");
  });

  it("deletion through the API (DELETE /account/{id}): tokens fail, deliveries stop, ACCOUNTDELETED arrives", async () => {
    const t = await accountWithRetryingDelivery("api-delete");
    const res = await request("DELETE", `${api()}/account/${t.accountId}`, { token: t.clientToken });
    expect(res.status, res.text).toBe(200);
    const at = Date.now();
    expect(await apiStatus(t.token)).toBe(401);
    await expectSilenceAndEvent(t, at, "ACCOUNTDELETED");
  });

  it("deletion through the driver site: ACCOUNTDELETED arrives", async () => {
    const t = await accountWithRetryingDelivery("site-delete");
    const browser = new Browser(undefined, base());
    expect((await browser.signIn("sandbox", t.username, "correct-horse-1")).problem).toBeNull();
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await request("DELETE", `${base()}/me/account`, {
      json: { confirmUsername: t.username },
      headers: { Cookie: cookie, "X-Forwarded-For": browser.address, Origin: base() },
    });
    expect(res.status, res.text).toBeLessThan(300);
    const at = Date.now();
    expect(await apiStatus(t.token)).toBe(401);
    await expectSilenceAndEvent(t, at, "ACCOUNTDELETED");
  });
});
