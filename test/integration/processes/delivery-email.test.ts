// @module-tag embedded
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
} from "@/test/helpers/delivery-fixture";
import { startSmtpReceiver } from "@/test/helpers/smtp-receiver";

// EMAIL deliveries: over SMTP to a real SMTP server on loopback when SMTP_URL is set, into the
// email_outbox table when it is not.

type Setup = { db: DeliveryDb; worker: WorkerProcess; app: Awaited<ReturnType<typeof seedApp>> };

async function setup(name: string, extraEnv: Record<string, string>): Promise<Setup> {
  const db = await deliveryDatabase(name);
  const app = await seedApp(db);
  const worker = startWorkerProcess(db.workerEnv(extraEnv));
  await worker.ready;
  return { db, worker, app };
}

async function teardown(s: Setup | undefined) {
  if (!s) return;
  await stopWorkerProcess(s.worker);
  await s.db.close();
}

const isFor = (id: number) => (m: { raw: string }) =>
  new RegExp(`^X-Wayline-Notification-Id: ${id}\\r?$`, "im").test(m.raw);

const rowStatus = async (db: DeliveryDb, notificationId: number) =>
  (
    await db.sql<
      { status: string }[]
    >`select status from notification_deliveries where notification_id = ${notificationId}`
  )[0]?.status;

describe("EMAIL delivery over SMTP", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let s: Setup;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    s = await setup("delivery-smtp", { SMTP_URL: smtp.url });
  });
  afterAll(async () => {
    await teardown(s);
    await smtp?.close();
  });

  it("sends to recipient with subscriberSubject, and subscriberContent followed by the event details", async () => {
    const sub = await createSubscription(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      deliveries: [
        {
          type: "EMAIL",
          recipient: "fleet@partner.example",
          subscriberSubject: "Truck moved",
          subscriberContent: "Your truck reported a position.",
        },
      ],
    });
    const [id] = await insertNotifications(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      subscriptionId: sub.subscriptionId,
      deliveryIds: sub.deliveryIds,
    });
    const mail = await waitFor(async () => smtp.mails.find(isFor(id!)), { what: "the e-mail" });
    expect(mail.to).toEqual(["fleet@partner.example"]);
    expect(mail.raw).toMatch(/^Subject: Truck moved\r?$/m);
    const body = mail.raw.slice(mail.raw.search(/\r?\n\r?\n/));
    expect(body.indexOf("Your truck reported a position.")).toBeGreaterThanOrEqual(0);
    expect(body.indexOf("Event details:")).toBeGreaterThan(body.indexOf("Your truck reported a position."));
    expect(body).toContain(`id: ${id}`);
    expect(body).toContain("_type: WAYPOINT");
    expect(body).toContain("recordedWaypoint:");
    await waitFor(async () => (await rowStatus(s.db, id!)) === "DELIVERED", { what: "DELIVERED" });
  });

  it("without subject and content: a summary of the event as subject, and the details", async () => {
    const sub = await createSubscription(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      deliveries: [{ type: "EMAIL", recipient: "ops@partner.example" }],
    });
    const [id] = await insertNotifications(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      subscriptionId: sub.subscriptionId,
      deliveryIds: sub.deliveryIds,
    });
    const mail = await waitFor(async () => smtp.mails.find(isFor(id!)), { what: "the e-mail" });
    expect(mail.raw).toMatch(/^Subject: Wayline: WAYPOINT event for vehicle \d+ at \d{8}T\d{6}\+0000\r?$/m);
    expect(mail.raw).toContain("Event details:");
  });

  it("a temporary SMTP failure (451) is retried until the server takes the mail", async () => {
    smtp.failNext(2);
    const sub = await createSubscription(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      deliveries: [{ type: "EMAIL", recipient: "retry@partner.example" }],
    });
    const [id] = await insertNotifications(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      subscriptionId: sub.subscriptionId,
      deliveryIds: sub.deliveryIds,
    });
    await waitFor(async () => (await rowStatus(s.db, id!)) === "DELIVERED", { what: "DELIVERED", timeoutMs: 30_000 });
    const attempts = await s.db.sql<
      { outcome: string; error: string | null; target: string }[]
    >`select outcome, error, target from delivery_attempts where notification_id = ${id!} order by id`;
    expect(attempts.map((a) => a.outcome)).toEqual(["RETRY", "RETRY", "DELIVERED"]);
    expect(attempts[0]!.error).toMatch(/451/);
    expect(attempts[0]!.target).toBe("mailto:retry@partner.example");
    expect(smtp.mails.filter(isFor(id!))).toHaveLength(1);
  });
});

describe("EMAIL delivery without SMTP_URL", () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setup("delivery-outbox", {});
  });
  afterAll(async () => teardown(s));

  it("keeps the e-mail in email_outbox and marks the notification delivered", async () => {
    const sub = await createSubscription(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      deliveries: [{ type: "EMAIL", recipient: "inbox@partner.example", subscriberSubject: "Moved" }],
    });
    const [id] = await insertNotifications(s.db.sql, {
      appId: s.app.appId,
      clientId: s.app.clientId,
      subscriptionId: sub.subscriptionId,
      deliveryIds: sub.deliveryIds,
    });
    await waitFor(async () => (await rowStatus(s.db, id!)) === "DELIVERED", { what: "DELIVERED" });
    const [mail] = await s.db.sql<{ recipient: string; subject: string; text: string; app_id: number }[]>`
      select o.recipient, o.subject, o.text, o.app_id from email_outbox o join notification_deliveries nd on
        nd.id = o.notification_delivery_id where nd.notification_id = ${id!}`;
    expect(mail).toMatchObject({ recipient: "inbox@partner.example", subject: "Moved", app_id: s.app.appId });
    expect(mail!.text).toContain(`id: ${id}`);
  });
});
