import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testSql, uniqueName } from "@/test/helpers/api";
import { Browser, visibleText } from "@/test/helpers/browser";
import { ConsolePartner } from "@/test/helpers/console-partner";
import { waitFor } from "@/test/helpers/delivery-fixture";
import {
  startHttpsReceiverFor,
  verifyWebhook,
  type HttpsReceiver,
  type ReceivedRequest,
} from "@/test/helpers/https-receiver";
import { poolApp } from "@/test/helpers/pool";

// The delivery half of the partner console over real HTTP: the webhook signing secret (reveal,
// rotation with 24 h overlap), every delivery attempt of a notification, resending one or all
// failed, a test notification per subscription, and the e-mail outbox; always for the partner's
// own apps only. The last part runs on the pool's shared app with the delivery worker on, with a
// real HTTPS receiver of its own, as delivery-e2e.test.ts does.
// On the embedded database too: the tests tagged `embedded`, those of the delivery rows and queue
// (the console's own checks, CSRF and 404s, answer the same there).

class Partner extends ConsolePartner {
  /** An app with a test account, its vehicle and a subscription of `type` delivered as given. */
  async appWithSubscription(delivery: Record<string, string>, type = "WAYPOINT") {
    const app = await this.createApp();
    const appId = String(app.appId);
    const accountId = String((await this.ok("create-test-account", { appId })).reveal!.accountId);
    const vehicleId = Number((await this.ok("create-test-vehicle", { appId, accountId })).reveal!.vehicleId);
    const sub = await this.ok("create-subscription", {
      appId,
      environment: "sandbox",
      scope: "VEHICLE",
      target: String(vehicleId),
      type,
      notificationPeriod: "CONTINUOUS",
      minimumTime: "0",
      ...delivery,
    });
    return { app, appId, vehicleId, subscriptionId: Number(sub.reveal!.subscriptionId) };
  }

  async testNotification(appId: string, subscriptionId: number): Promise<number> {
    return Number(
      (await this.ok("send-test-notification", { appId, subscriptionId: String(subscriptionId) })).reveal!
        .notificationId,
    );
  }
}

const newPartner = (base = "") => new Partner(base).signUp();
const hook = { delivery: "HTTP_POST", postUrl: "https://partner.example/hook" };

describe("console deliveries on the suite's service (worker off)", () => {
  it(
    "send-test-notification makes a test notification with one PENDING delivery row, queued for the worker",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { appId, subscriptionId } = await partner.appWithSubscription(hook);
      const id = await partner.testNotification(appId, subscriptionId);
      const [note] = await testSql()`select test, subscription_id from notifications where id = ${id}`;
      expect(note).toEqual({ test: true, subscription_id: subscriptionId });
      const rows = await testSql()`select id, status from notification_deliveries where notification_id = ${id}`;
      expect(rows.map((r) => r.status)).toEqual(["PENDING"]);
      const [entry] =
        await testSql()`select attempts, lease_owner, next_attempt_at <= now() as due from notification_deliveries where id = ${rows[0]!.id}`;
      expect(entry).toEqual({ attempts: 0, lease_owner: null, due: true });
      const detail = visibleText((await partner.get(`/console/apps/${appId}/notifications/${id}`)).text);
      expect(detail).toContain("https://partner.example/hook");
      expect(detail).toContain("No attempt yet.");
    },
  );

  it(
    "resend-notification puts finished rows back to PENDING with a fresh schedule, due now in the queue; a second resend → 409",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { appId, subscriptionId } = await partner.appWithSubscription(hook);
      const id = await partner.testNotification(appId, subscriptionId);
      // A finished row left with a failing schedule and a lease: the resend starts it afresh.
      const [row] =
        await testSql()`update notification_deliveries set status = 'FAILED', attempts = 7, failing_since = now(), next_attempt_at = now() + interval '1 hour',
                          lease_owner = 'gone:1:abc', lease_until = now() + interval '1 minute' where notification_id = ${id} returning id`;
      const ndId = Number(row!.id);

      const res = await partner.action("resend-notification", { appId, notificationId: String(id) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.redirect).toBe(`/console/apps/${appId}/notifications/${id}`);
      const [after] = await testSql()`select status from notification_deliveries where id = ${ndId}`;
      expect(after!.status).toBe("PENDING");
      const entries = await testSql()`select attempts, failing_since, lease_owner, lease_until, next_attempt_at <= now()
          as due from notification_deliveries where id = ${ndId}`;
      expect(entries).toEqual([{ attempts: 0, failing_since: null, lease_owner: null, lease_until: null, due: true }]);

      const again = await partner.action("resend-notification", { appId, notificationId: String(id) });
      expect(again.status).toBe(409);
      expect(again.body.error).toContain("Nothing to resend");
    },
  );

  it("resend-notification of a deactivated delivery → 409 and nothing changes", { tags: ["embedded"] }, async () => {
    const partner = await newPartner();
    const { appId, subscriptionId } = await partner.appWithSubscription(hook);
    const id = await partner.testNotification(appId, subscriptionId);
    await testSql()`update notification_deliveries set status = 'FAILED' where notification_id = ${id}`;
    await testSql()`update subscription_deliveries set active = false, deactivation_reason = 'HTTP 410' where subscription_id = ${subscriptionId}`;
    const res = await partner.action("resend-notification", { appId, notificationId: String(id) });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain("reactivate");
    const [row] = await testSql()`select status from notification_deliveries where notification_id = ${id}`;
    expect(row!.status).toBe("FAILED");
  });

  it(
    "resend-failed re-queues the app's FAILED rows since the time given, counts them, skips deactivated deliveries; the status filter and column follow",
    { tags: ["embedded"] },
    async () => {
      const partner = await newPartner();
      const { appId, subscriptionId, vehicleId } = await partner.appWithSubscription(hook);
      const ids = [];
      for (let i = 0; i < 4; i++) ids.push(await partner.testNotification(appId, subscriptionId));
      const [failed1, failed2, delivered, old] = ids as [number, number, number, number];
      await testSql()`update notification_deliveries set status = 'FAILED' where notification_id in ${testSql()([failed1, failed2, old])}`;
      await testSql()`update notification_deliveries set status = 'DELIVERED' where notification_id = ${delivered}`;
      await testSql()`update notifications set created_at = now() - interval '3 days' where id = ${old}`;
      // A second subscription whose receiver was deactivated: its failed row is counted as skipped.
      const other = await partner.ok("create-subscription", {
        appId,
        environment: "sandbox",
        scope: "VEHICLE",
        target: String(vehicleId),
        type: "WAYPOINT",
        notificationPeriod: "CONTINUOUS",
        minimumTime: "0",
        ...hook,
      });
      const otherId = Number(other.reveal!.subscriptionId);
      const inactive = await partner.testNotification(appId, otherId);
      await testSql()`update notification_deliveries set status = 'FAILED' where notification_id = ${inactive}`;
      await testSql()`update subscription_deliveries set active = false, deactivation_reason = 'HTTP 410' where subscription_id = ${otherId}`;

      const list = async (status: string) =>
        (await partner.get(`/console/apps/${appId}/notifications?env=sandbox&status=${status}`)).text;
      const failedPage = await list("failed");
      for (const id of [failed1, failed2, old, inactive]) expect(failedPage).toContain(`notification-${id}`);
      expect(failedPage).not.toContain(`notification-${delivered}`);
      expect(await list("delivered")).toContain(`notification-${delivered}`);
      expect(await list("delivered")).toMatch(
        new RegExp(`data-testid="state-${delivered}"[^>]*><span[^>]*>delivered<`),
      );

      const since = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 16);
      const res = await partner.action("resend-failed", { appId, environment: "sandbox", since });
      expect(res.status, res.text).toBe(200);
      expect(res.body.reveal).toEqual({ requeued: 2, skippedDeactivated: 1, moreRemain: "no" });
      const states = await testSql()`select notification_id, status from notification_deliveries where notification_id
          in ${testSql()(ids.concat(inactive))} order by notification_id`;
      expect(Object.fromEntries(states.map((s) => [Number(s.notification_id), s.status]))).toEqual({
        [failed1]: "PENDING",
        [failed2]: "PENDING",
        [delivered]: "DELIVERED",
        [old]: "FAILED",
        [inactive]: "FAILED",
      });
      const pending = await list("pending");
      for (const id of [failed1, failed2]) expect(pending).toContain(`notification-${id}`);

      // Nothing failed since then any more.
      expect(
        (await partner.action("resend-failed", { appId, environment: "sandbox", since })).body.reveal.requeued,
      ).toBe(0);
      const bad = await partner.action("resend-failed", { appId, environment: "sandbox", since: "yesterday" });
      expect(bad.status).toBe(400);
      expect(bad.body.fieldErrors[0].fieldName).toBe("since");
    },
  );

  it("rotate-signing-secret: the old secret gets an expiry 24 h away, the new one is current and revealed; reveal shows the current one", async () => {
    const partner = await newPartner();
    const app = await partner.createApp();
    const appId = String(app.appId);
    const before = String((await partner.ok("reveal-signing-secret", { appId })).reveal!.signingSecret);
    expect(before).toMatch(/^whsec_/);
    const rotated = (await partner.ok("rotate-signing-secret", { appId })).reveal!;
    const after = String(rotated.signingSecret);
    expect(after).toMatch(/^whsec_/);
    expect(after).not.toBe(before);
    const rows =
      await testSql()`select secret, expires_at from app_signing_secrets where app_id = ${app.appId} order by id`;
    expect(rows.map((r) => r.secret)).toEqual([before, after]);
    const expiresIn = new Date(rows[0]!.expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);
    expect(new Date(String(rotated.previousSecretSignsUntil)).getTime()).toBe(new Date(rows[0]!.expires_at).getTime());
    expect(rows[1]!.expires_at).toBeNull();
    expect((await partner.ok("reveal-signing-secret", { appId })).reveal!.signingSecret).toBe(after);
    const page = visibleText((await partner.get(`/console/apps/${appId}`)).text);
    expect(page).toContain("signs until");
    expect(page).toContain("current");
    expect(page).not.toContain(after);
  });

  it("partner B gets 404 for A's delivery log, outbox, resends, test notification and signing secret", async () => {
    const a = await newPartner();
    const { appId, subscriptionId } = await a.appWithSubscription(hook);
    const id = await a.testNotification(appId, subscriptionId);
    await testSql()`update notification_deliveries set status = 'FAILED' where notification_id = ${id}`;
    const b = await newPartner();
    const bApp = String((await b.createApp()).appId);

    for (const path of [
      `/console/apps/${appId}/notifications/${id}`,
      `/console/apps/${appId}/outbox`,
      `/console/apps/${bApp}/notifications/${id}`,
    ]) {
      expect((await b.get(path)).status, path).toBe(404);
    }
    const since = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
    const posts: [string, Record<string, string>][] = [
      ["resend-notification", { appId, notificationId: String(id) }],
      ["resend-notification", { appId: bApp, notificationId: String(id) }],
      ["resend-failed", { appId, environment: "sandbox", since }],
      ["send-test-notification", { appId, subscriptionId: String(subscriptionId) }],
      ["send-test-notification", { appId: bApp, subscriptionId: String(subscriptionId) }],
      ["reveal-signing-secret", { appId }],
      ["rotate-signing-secret", { appId }],
    ];
    for (const [name, form] of posts) {
      const res = await b.action(name, form);
      expect(res.status, `${name} ${JSON.stringify(form)}`).toBe(404);
      expect(res.text).not.toContain("whsec_");
    }
    const [row] = await testSql()`select status from notification_deliveries where notification_id = ${id}`;
    expect(row!.status).toBe("FAILED");
    expect(await testSql()`select 1 from app_signing_secrets where app_id = ${Number(appId)}`).toHaveLength(1);
    expect(await testSql()`select 1 from notifications where subscription_id = ${subscriptionId}`).toHaveLength(1);
  });

  it("the new actions refuse a missing CSRF token, another origin and no session; malformed ids → 404", async () => {
    const partner = await newPartner();
    const { appId, subscriptionId } = await partner.appWithSubscription(hook);
    const id = await partner.testNotification(appId, subscriptionId);
    await testSql()`update notification_deliveries set status = 'FAILED' where notification_id = ${id}`;
    for (const [name, form] of [
      ["rotate-signing-secret", { appId }],
      ["reveal-signing-secret", { appId }],
      ["resend-notification", { appId, notificationId: String(id) }],
      ["send-test-notification", { appId, subscriptionId: String(subscriptionId) }],
    ] as [string, Record<string, string>][]) {
      expect((await partner.post(`/console/actions/${name}`, form, { Accept: "application/json" })).status, name).toBe(
        403,
      );
      expect((await partner.action(name, form, { Origin: "https://evil.example" })).status, name).toBe(403);
      expect(
        (
          await new Browser().post(
            `/console/actions/${name}`,
            { ...form, csrfToken: partner.csrf },
            { Accept: "application/json" },
          )
        ).status,
        name,
      ).toBe(401);
    }
    expect((await partner.action("resend-notification", { appId, notificationId: "x" })).status).toBe(404);
    expect(await testSql()`select 1 from app_signing_secrets where app_id = ${Number(appId)}`).toHaveLength(1);
    const [row] = await testSql()`select status from notification_deliveries where notification_id = ${id}`;
    expect(row!.status).toBe("FAILED");
    expect(await testSql()`select 1 from notifications where subscription_id = ${subscriptionId}`).toHaveLength(1);
  });
});

describe(
  "console deliveries end to end (the pool's app with the worker on, an HTTPS receiver)",
  { tags: ["embedded"] },
  () => {
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

    const delivered = (id: number) =>
      waitFor(
        async () =>
          (await sql`select status from notification_deliveries where notification_id = ${id}`)[0]?.status ===
          "DELIVERED",
        { what: `notification ${id} delivered`, timeoutMs: 30_000 },
      );

    it("a receiver failing once then answering 200: both attempts, with status, error, response and signature, show on the notification page", async () => {
      const partner = await newPartner(service.baseUrl);
      let calls = 0;
      receiver.route("/flaky", () =>
        ++calls === 1 ? { status: 503, body: '{"error":"warming up"}' } : { status: 200, body: '{"ok":true}' },
      );
      const { appId, subscriptionId } = await partner.appWithSubscription({
        delivery: "HTTP_POST",
        postUrl: `${receiver.url}/flaky`,
      });
      const id = await partner.testNotification(appId, subscriptionId);
      await delivered(id);

      const page = await partner.get(`/console/apps/${appId}/notifications/${id}`);
      const text = visibleText(page.text);
      expect(text).toContain("503");
      expect(text).toContain("warming up");
      expect(text).toContain("RETRY");
      expect(text).toContain("DELIVERED");
      const received = receiver.on("/flaky").at(-1)!;
      expect(text).toContain(`webhook-signature: ${received.headers["webhook-signature"]}`);
      expect(text).toContain(`${received.headers["webhook-id"]}.${received.headers["webhook-timestamp"]}.`);
      const list = (await partner.get(`/console/apps/${appId}/notifications?env=sandbox&status=delivered`)).text;
      expect(list).toContain(`notification-${id}`);
    });

    it("after a rotation a delivery verifies with the old and the new secret; once the old one expired, only with the new", async () => {
      const partner = await newPartner(service.baseUrl);
      const { app, appId, subscriptionId } = await partner.appWithSubscription({
        delivery: "HTTP_POST",
        postUrl: `${receiver.url}/rotation`,
      });
      const oldSecret = String((await partner.ok("reveal-signing-secret", { appId })).reveal!.signingSecret);
      const newSecret = String((await partner.ok("rotate-signing-secret", { appId })).reveal!.signingSecret);

      const first = await partner.testNotification(appId, subscriptionId);
      await delivered(first);
      const during = receivedFor(receiver.on("/rotation"), first);
      expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
      expect(verifyWebhook(oldSecret, during)).toMatchObject({ id: first });
      expect(verifyWebhook(newSecret, during)).toMatchObject({ id: first });

      // 24 h later (moved into the past rather than waited for): the old secret no longer signs.
      await sql`update app_signing_secrets set expires_at = now() - interval '1 second' where app_id = ${app.appId} and expires_at is not null`;
      const second = await partner.testNotification(appId, subscriptionId);
      await delivered(second);
      const later = receivedFor(receiver.on("/rotation"), second);
      expect(later.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
      expect(() => verifyWebhook(oldSecret, later)).toThrow();
      expect(verifyWebhook(newSecret, later)).toMatchObject({ id: second });
    });

    it("a receiver answering 410 deactivates the delivery; reactivated and resent, the notification is delivered", async () => {
      const partner = await newPartner(service.baseUrl);
      let gone = true;
      receiver.route("/gone", () => (gone ? { status: 410 } : { status: 200, body: "{}" }));
      const { appId, subscriptionId } = await partner.appWithSubscription({
        delivery: "HTTP_POST",
        postUrl: `${receiver.url}/gone`,
      });
      const id = await partner.testNotification(appId, subscriptionId);
      await waitFor(
        async () =>
          (await sql`select status from notification_deliveries where notification_id = ${id}`)[0]?.status === "FAILED",
        { what: "FAILED after 410", timeoutMs: 30_000 },
      );
      expect(visibleText((await partner.get(`/console/apps/${appId}/notifications/${id}`)).text)).toContain(
        "delivery deactivated",
      );
      expect((await partner.action("resend-notification", { appId, notificationId: String(id) })).status).toBe(409);

      gone = false;
      const [delivery] = await sql`select id from subscription_deliveries where subscription_id = ${subscriptionId}`;
      await partner.ok("reactivate-delivery", {
        appId,
        environment: "sandbox",
        subscriptionId: String(subscriptionId),
        deliveryId: String(delivery!.id),
      });
      await partner.ok("resend-notification", { appId, notificationId: String(id) });
      await delivered(id);
      expect(receiver.on("/gone")).toHaveLength(2);
    });

    it("with no SMTP server, an EMAIL delivery lands in the app's outbox page; another partner gets 404 there", async () => {
      const partner = await newPartner(service.baseUrl);
      const recipient = `${uniqueName("ops")}@partner.example`;
      const { appId, subscriptionId } = await partner.appWithSubscription({ delivery: "EMAIL", recipient });
      const id = await partner.testNotification(appId, subscriptionId);
      await delivered(id);
      const [mail] = await sql`select subject from email_outbox where app_id = ${Number(appId)}`;
      const page = visibleText((await partner.get(`/console/apps/${appId}/outbox`)).text);
      expect(page).toContain(recipient);
      expect(page).toContain(mail!.subject);
      expect(page).toContain("No SMTP server is configured");
      const other = await newPartner(service.baseUrl);
      expect((await other.get(`/console/apps/${appId}/outbox`)).status).toBe(404);
    });
  },
);

function receivedFor(requests: ReceivedRequest[], notificationId: number): ReceivedRequest {
  const found = requests.find((r) => (JSON.parse(r.body) as { id: number }).id === notificationId);
  if (!found) throw new Error(`no webhook for notification ${notificationId}`);
  return found;
}
