import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visibleText } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { request } from "@/test/helpers/api";
import { startHttpsReceiverFor, verifyWebhook, type HttpsReceiver } from "@/test/helpers/https-receiver";
import { poolApp } from "@/test/helpers/pool";

// The sandbox inbox (docs/delivery.md#sandbox-inbox) over real HTTP, on the pool's shared app with the
// delivery worker on: a sandbox subscription delivers to the app's inbox URL through the real
// worker; the inbox verifies the signature (checked again here with the standardwebhooks
// package), keeps the last 100 requests, answers 500 or 401 when told to; the inbox URL is refused
// in production, and every other http:// URL stays refused by the SSRF guard.
// On the embedded database too: the tests tagged `embedded`, those of delivery through the worker and
// the inbox's rows (the URL and signature checks answer the same there).

type InboxRequest = {
  id: number;
  method: string;
  headers: [string, string][];
  body: string;
  answerStatus: number;
  signatureValid: boolean | null;
  signatureNote: string;
};

const service = poolApp("worker");
let receiver: HttpsReceiver;
let sql: postgres.Sql;

beforeAll(async () => {
  receiver = await startHttpsReceiverFor(service);
  sql = postgres(service.databaseUrl, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end({ timeout: 5 });
  await receiver?.close();
});

const newPartner = () => new ConsolePartner(service.baseUrl).signUp();
const port = () => new URL(service.baseUrl).port;

/** The inbox URL as the app page shows it, beside its Copy button. */
async function inboxUrlOf(partner: ConsolePartner, appId: string): Promise<string> {
  const html = (await partner.get(`/console/apps/${appId}`)).text;
  const url = /data-testid="value-Inbox URL"[^>]*>([^<]+)</.exec(html)?.[1];
  if (!url) throw new Error("no inbox URL on the app page");
  return url;
}

async function inboxRequests(partner: ConsolePartner, appId: string, after?: number): Promise<InboxRequest[]> {
  const res = await partner.get(`/console/apps/${appId}/inbox/requests${after === undefined ? "" : `?after=${after}`}`);
  expect(res.status, res.text).toBe(200);
  return (JSON.parse(res.text) as { requests: InboxRequest[] }).requests;
}

const headerMap = (r: InboxRequest) => Object.fromEntries(r.headers);
const attemptsOf = (notificationId: number) =>
  sql`select outcome, http_status, latency_ms, response_excerpt, target, error, signature from
    delivery_attempts where notification_id = ${notificationId} order by id`;
const statusOf = async (notificationId: number) =>
  (await sql`select status from notification_deliveries where notification_id = ${notificationId}`)[0]?.status as
    string | undefined;

async function inboxSubscription(partner: ConsolePartner) {
  const { app, appId, vehicleId } = await partner.appWithVehicle();
  const url = await inboxUrlOf(partner, appId);
  const sub = await partner.subscribe(appId, vehicleId, { delivery: "HTTP_POST", postUrl: url });
  expect(sub.status, sub.text).toBe(200);
  const signingSecret = String((await partner.ok("reveal-signing-secret", { appId })).reveal!.signingSecret);
  return { app, appId, vehicleId, url, subscriptionId: Number(sub.body.reveal.subscriptionId), signingSecret };
}

describe("sandbox inbox", () => {
  it(
    "a sandbox HTTP_POST subscription to the app's inbox URL: the worker delivers there, the signature verifies, the attempt reads like any other",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { appId, url, subscriptionId, signingSecret } = await inboxSubscription(partner);
      expect(url).toMatch(new RegExp(`^http://localhost:${port()}/sandbox/inbox/[A-Za-z0-9_-]{32}$`));
      // The same URL, with its Copy button, on the subscriptions and inbox pages.
      for (const page of [`/console/apps/${appId}/subscriptions?env=sandbox`, `/console/apps/${appId}/inbox`]) {
        const html = (await partner.get(page)).text;
        expect(html, page).toContain(url);
        expect(html, page).toContain('aria-label="Copy Inbox URL"');
      }

      const id = await partner.testNotification(appId, subscriptionId);
      await waitFor(async () => (await statusOf(id)) === "DELIVERED", {
        what: "delivered to the inbox",
        timeoutMs: 30_000,
      });

      const [received] = await inboxRequests(partner, appId);
      const headers = headerMap(received!);
      expect(received!.method).toBe("POST");
      expect(headers["webhook-id"]).toBe(String(id));
      expect(headers["content-type"]).toBe("application/json");
      expect(headers.host).toBe(`localhost:${port()}`);
      expect(received!.signatureValid).toBe(true);
      expect(received!.signatureNote).toContain("current signing secret");
      // Judged again by someone else's implementation.
      expect(verifyWebhook(signingSecret, { headers, body: received!.body } as never)).toMatchObject({
        id,
        subscriptionId,
        httpStatusCode: 0,
      });

      const attempts = await attemptsOf(id);
      expect(attempts).toHaveLength(1);
      expect(attempts[0]).toMatchObject({
        outcome: "DELIVERED",
        http_status: 200,
        target: url,
        error: null,
        signature: headers["webhook-signature"],
      });
      expect(attempts[0]!.latency_ms).toBeGreaterThanOrEqual(0);
      expect(JSON.parse(attempts[0]!.response_excerpt as string)).toEqual({ received: true, requestId: received!.id });
    },
  );

  it(
    "the notification's console page shows the body once, then each attempt with the request headers as " +
      "sent (signature included), status, latency and the answer",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { appId, subscriptionId } = await inboxSubscription(partner);
      await partner.ok("set-inbox-answer", { appId, answerStatus: "500" });
      const id = await partner.testNotification(appId, subscriptionId);
      await waitFor(async () => (await attemptsOf(id)).length >= 1, { what: "a failed attempt", timeoutMs: 30_000 });
      await partner.ok("set-inbox-answer", { appId, answerStatus: "200" });
      await waitFor(async () => (await statusOf(id)) === "DELIVERED", { what: "delivered", timeoutMs: 60_000 });

      const html = (await partner.get(`/console/apps/${appId}/notifications/${id}`)).text;
      // The pretty-printed body once (the Copy button no longer repeats it).
      expect(html.split('data-testid="notification-json"').length - 1).toBe(1);
      expect(html.match(/&quot;subscriptionId&quot;: \d+/g) ?? html.match(/"subscriptionId": \d+/g)).toHaveLength(1);
      expect(html).toContain('aria-label="Copy JSON"');
      const text = visibleText(html);
      const received = await inboxRequests(partner, appId);
      const attempts = await attemptsOf(id);
      expect(attempts.length).toBe(received.length);
      for (const request of received) {
        const sent = headerMap(request);
        for (const name of ["content-type", "user-agent", "webhook-id", "webhook-timestamp", "webhook-signature"])
          expect(text).toContain(`${name}: ${sent[name]}`);
      }
      for (const a of attempts) {
        expect(text).toContain(`${a.latency_ms} ms`);
        expect(text).toContain(a.outcome as string);
      }
      expect(text).toContain("set to answer 500");
      expect(text).toContain('"received":true');
    },
  );

  it("POST /sandbox/inbox/{token} over HTTP: signed with the app's secret → verifies; tampered → does not; unsigned → not signed; unknown token → 404; GET → 405", async () => {
    const partner = await newPartner();
    const { app } = await partner.appWithVehicle();
    const appId = String(app.appId);
    const url = await inboxUrlOf(partner, appId);
    const direct = url.replace(`http://localhost:${port()}`, service.baseUrl);
    const secret = String((await partner.ok("reveal-signing-secret", { appId })).reveal!.signingSecret);
    const body = JSON.stringify({ hello: "inbox" });
    const now = new Date();
    const signed = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_1", now, body),
    };
    const post = (b: string, h: Record<string, string>) =>
      fetch(direct, { method: "POST", headers: { "content-type": "application/json", ...h }, body: b });

    const ok = await post(body, signed);
    expect(ok.status).toBe(200);
    expect(await post(`${body} `, signed).then((r) => r.status)).toBe(200);
    expect(
      await post("plain text", {
        "content-type": "text/plain",
        cookie: "wayline-partner.session-token=not-for-the-inbox",
      }).then((r) => r.status),
    ).toBe(200);

    const [unsigned, tampered, good] = await inboxRequests(partner, appId);
    expect(good).toMatchObject({ body, signatureValid: true });
    expect(tampered).toMatchObject({ signatureValid: false });
    expect(tampered!.signatureNote).toContain("Does not verify");
    expect(unsigned).toMatchObject({ body: "plain text", signatureValid: null });
    // A cookie for this site is never kept, nor the client address the service stamps for itself.
    expect(headerMap(unsigned!).cookie).toBe("(not stored)");
    expect(headerMap(unsigned!)).not.toHaveProperty("x-wayline-client-address");

    expect(
      await fetch(direct.replace(/[A-Za-z0-9_-]{32}$/, "A".repeat(32)), { method: "POST", body }).then((r) => r.status),
    ).toBe(404);
    expect(await fetch(direct).then((r) => r.status)).toBe(405);
    expect(await inboxRequests(partner, appId)).toHaveLength(3);
  });

  it(
    "keeps the last 100 requests per app: older ones are deleted as new ones arrive, also when they arrive at once",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { app } = await partner.appWithVehicle();
      const appId = String(app.appId);
      const direct = (await inboxUrlOf(partner, appId)).replace(`http://localhost:${port()}`, service.baseUrl);
      for (let batch = 0; batch < 11; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            fetch(direct, {
              method: "POST",
              headers: { "content-type": "text/plain" },
              body: `request ${batch * 10 + i}`,
            }).then((r) => r.status),
          ),
        );
        expect(answers).toEqual(Array(10).fill(200));
      }
      const [row] = await sql`select count(*)::int as n from sandbox_inbox_requests where app_id = ${app.appId}`;
      expect(row!.n).toBe(100);
      const kept = await inboxRequests(partner, appId);
      expect(kept).toHaveLength(100);
      // The first batch went in first, so the ten kept out are among the oldest: every kept id is newer than every deleted one.
      const ids = kept.map((r) => r.id);
      const [gone] =
        await sql`select count(*)::int as n from sandbox_inbox_requests where app_id = ${app.appId} and id < ${Math.min(...ids)}`;
      expect(gone!.n).toBe(0);
      expect(kept.filter((r) => r.body.startsWith("request ")).length).toBe(100);
    },
  );

  it(
    "told to answer 500, the inbox makes the attempt fail and retry; back to 200, the retry is delivered",
    { tags: ["embedded"], timeout: 120_000 },
    async () => {
      const partner = await newPartner();
      const { appId, subscriptionId } = await inboxSubscription(partner);
      await partner.ok("set-inbox-answer", { appId, answerStatus: "500" });
      const id = await partner.testNotification(appId, subscriptionId);
      await waitFor(async () => (await attemptsOf(id)).length >= 2, { what: "two failed attempts", timeoutMs: 30_000 });
      await partner.ok("set-inbox-answer", { appId, answerStatus: "200" });
      await waitFor(async () => (await statusOf(id)) === "DELIVERED", {
        what: "delivered after the inbox answers 200 again",
        timeoutMs: 60_000,
      });

      const attempts = await attemptsOf(id);
      const failed = attempts.slice(0, -1);
      expect(failed.length).toBeGreaterThanOrEqual(2);
      for (const a of failed) expect(a).toMatchObject({ outcome: "RETRY", http_status: 500, error: "HTTP 500" });
      expect(failed[0]!.response_excerpt).toContain("set to answer 500");
      expect(attempts.at(-1)).toMatchObject({ outcome: "DELIVERED", http_status: 200 });
      const received = await inboxRequests(partner, appId);
      expect(received.map((r) => r.answerStatus)).toEqual([200, ...failed.map(() => 500)]);
      expect(received.every((r) => r.signatureValid === true)).toBe(true);
    },
  );

  it(
    "told to answer 401, a plain HTTP_POST delivery is deactivated with the reason, as by any receiver answering 401",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { appId, subscriptionId } = await inboxSubscription(partner);
      await partner.ok("set-inbox-answer", { appId, answerStatus: "401" });
      const id = await partner.testNotification(appId, subscriptionId);
      await waitFor(async () => (await statusOf(id)) === "FAILED", { what: "FAILED after 401", timeoutMs: 30_000 });
      expect(await attemptsOf(id)).toMatchObject([{ outcome: "DEACTIVATED", http_status: 401 }]);
      const [delivery] =
        await sql`select active, deactivation_reason from subscription_deliveries where subscription_id = ${subscriptionId}`;
      expect(delivery).toMatchObject({ active: false });
      expect(delivery!.deactivation_reason).toContain("HTTP 401");
      expect((await partner.action("set-inbox-answer", { appId, answerStatus: "302" })).status).toBe(400);
    },
  );

  it(
    "told to answer 401, an oauth2 delivery refreshes its token at the partner's token endpoint and resends with the new one",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { app, appId, vehicleId } = await partner.appWithVehicle();
      const url = await inboxUrlOf(partner, appId);
      receiver.route("/inbox-token", () => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ access_token: "access-2", refresh_token: "refresh-2" }),
      }));
      const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
      const token = await request("POST", `${service.baseUrl}/sandbox/oauth/token`, {
        body: "grant_type=client_credentials",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: `Basic ${basic}` },
      });
      expect(token.status, token.text).toBe(200);
      const oauth2 = {
        access_token: "access-1",
        client_id: "partner-client",
        client_secret: "partner-secret",
        refresh_token: "refresh-1",
        redirect_uri: `${receiver.url}/inbox-token`,
      };
      const sub = await request(
        "POST",
        `${service.baseUrl}/sandbox/api/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`,
        { token: token.body.access_token, json: { deliveries: [{ type: "HTTP_POST", postUrl: url, oauth2 }] } },
      );
      expect(sub.status, sub.text).toBe(200);
      await partner.ok("set-inbox-answer", { appId, answerStatus: "401" });

      const id = await partner.testNotification(appId, Number(sub.body.subscription.id));
      await waitFor(async () => (await statusOf(id)) === "FAILED", {
        what: "FAILED after the refresh",
        timeoutMs: 30_000,
      });
      expect(await attemptsOf(id)).toMatchObject([
        { outcome: "REFRESHED", http_status: 401 },
        { outcome: "DEACTIVATED", http_status: 401 },
      ]);
      const [refresh] = receiver.on("/inbox-token");
      expect(refresh!.query.get("grant_type")).toBe("refresh_token");
      expect(refresh!.query.get("refresh_token")).toBe("refresh-1");
      const received = await inboxRequests(partner, appId);
      expect(received.map((r) => headerMap(r).authorization)).toEqual(["Bearer access-2", "Bearer access-1"]);
      expect(received.map((r) => r.answerStatus)).toEqual([401, 401]);
    },
  );

  it("the inbox URL is refused as a production target; other http:// URLs, another app's inbox and other spellings of this one stay refused", async () => {
    const partner = await newPartner();
    const { appId, vehicleId, url } = await inboxSubscription(partner);
    const other = await newPartner();
    const otherUrl = await inboxUrlOf(other, String((await other.createApp()).appId));

    await partner.ok("confirm-obligations", { appId, credentials: "on", driverSite: "on", dataStatement: "on" });
    const production = await partner.action("create-subscription", {
      appId,
      environment: "production",
      scope: "SYSTEM",
      type: "AUTHORIZATIONSTATUS",
      notificationPeriod: "CONTINUOUS",
      delivery: "HTTP_POST",
      postUrl: url,
    });
    expect(production.status, production.text).toBe(400);
    expect(production.body.fieldErrors).toEqual([
      expect.objectContaining({
        fieldName: "postUrl",
        errorDisplay: expect.stringContaining("sandbox deliveries only"),
      }),
    ]);

    const refused: [string, string][] = [
      [otherUrl, "Not this app's sandbox inbox"],
      [url.replace("localhost", "127.0.0.1"), "Only https://"],
      [`${url}?x=1`, "Only https://"],
      [url.replace("/sandbox/inbox/", "/sandbox/inbox/x/"), "Only https://"],
      [`http://localhost:${port()}/v1/api/vehicle/`, "Only https://"],
      ["http://partner.example/hook", "Only https://"],
    ];
    for (const [postUrl, message] of refused) {
      const res = await partner.subscribe(appId, vehicleId, { delivery: "HTTP_POST", postUrl });
      expect(res.status, postUrl).toBe(400);
      expect(res.body.fieldErrors, postUrl).toEqual([
        expect.objectContaining({ fieldName: "postUrl", errorDisplay: expect.stringContaining(message) }),
      ]);
    }
    expect((await sql`select count(*)::int as n from subscriptions where app_id = ${Number(appId)}`)[0]!.n).toBe(1);
  });

  it("at send time only the exact inbox URL skips the SSRF guard: another spelling of it (put into the row directly) is refused with no request made", async () => {
    const partner = await newPartner();
    const { appId, url, subscriptionId } = await inboxSubscription(partner);
    const spelled = url.replace("localhost", "127.0.0.1");
    await sql`update subscription_deliveries set post_url = ${spelled} where subscription_id = ${subscriptionId}`;
    const id = await partner.testNotification(appId, subscriptionId);
    await waitFor(async () => (await statusOf(id)) === "FAILED", { what: "refused by the guard", timeoutMs: 30_000 });
    const [attempt] = await attemptsOf(id);
    expect(attempt).toMatchObject({ outcome: "DEACTIVATED", http_status: null, target: spelled });
    expect(attempt!.error).toContain("only https");
    expect(await inboxRequests(partner, appId)).toHaveLength(0);
  });

  it(
    "the live feed: Server-Sent Events bring a request that arrives after the stream opened; another partner gets 404 for the inbox page, feed and list",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { app } = await partner.appWithVehicle();
      const appId = String(app.appId);
      const direct = (await inboxUrlOf(partner, appId)).replace(`http://localhost:${port()}`, service.baseUrl);
      const cookie = [...partner.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const abort = new AbortController();
      const stream = await fetch(`${service.baseUrl}/console/apps/${appId}/inbox/events?after=0`, {
        headers: { Cookie: cookie, "X-Forwarded-For": partner.address, Accept: "text/event-stream" },
        signal: abort.signal,
      });
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toContain("text/event-stream");
      const reader = stream.body!.getReader();
      const decoder = new TextDecoder();
      expect(decoder.decode((await reader.read()).value)).toContain("retry:");
      expect(
        (await fetch(direct, { method: "POST", headers: { "content-type": "text/plain" }, body: "live one" })).status,
      ).toBe(200);
      let text = "";
      while (!text.includes("event: request")) text += decoder.decode((await reader.read()).value);
      abort.abort();
      const data = /data: (.+)\n/.exec(text.slice(text.indexOf("event: request")))![1]!;
      expect(JSON.parse(data)).toMatchObject({ method: "POST", body: "live one", signatureValid: null });

      const stranger = await newPartner();
      for (const page of [
        `/console/apps/${appId}/inbox`,
        `/console/apps/${appId}/inbox/events`,
        `/console/apps/${appId}/inbox/requests`,
      ]) {
        const res = await stranger.get(page);
        expect(res.status, page).toBe(404);
        expect(res.text).not.toContain("live one");
      }
      expect((await stranger.action("set-inbox-answer", { appId, answerStatus: "500" })).status).toBe(404);
    },
  );
});
