import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Browser } from "@/test/helpers/browser";
import { newDriver } from "@/test/helpers/oauth-flow";
import { startPushService, type BrowserSubscription, type PushService } from "@/test/helpers/push-service";

// Browser notifications end to end (docs/browser-notifications.md): a driver's browser subscribes
// through the driver site, the service sends through its delivery network to a push service stand-in
// on loopback, which verifies the VAPID token and decrypts the message with its own RFC 8291
// implementation. The subscriptions' keys are made in the test as a browser makes them.

let push: PushService;
beforeAll(async () => {
  push = await startPushService({ dataDir: inject("dataDir") });
});
afterAll(() => push.close());

const json = (page: { text: string }) => JSON.parse(page.text) as Record<string, any>;

async function publicKey(browser: Browser): Promise<string> {
  const page = await browser.request("GET", "/me/push");
  expect(page.status, page.text).toBe(200);
  return json(page).push.publicKey as string;
}

async function subscribed(browser: Browser): Promise<BrowserSubscription> {
  const subscription = push.subscribe(await publicKey(browser));
  const page = await browser.request("POST", "/me/push/subscribe", {
    json: subscription.toJSON(),
    headers: {
      "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
    },
  });
  expect(page.status, page.text).toBe(200);
  expect(json(page).subscription.label).toBe("Chrome on Linux");
  return subscription;
}

const sendTest = async (browser: Browser) => {
  const page = await browser.request("POST", "/me/push/test");
  expect(page.status, page.text).toBe(200);
  return json(page) as { sent: number; removed: number; failures: string[] };
};

const browsers = async (browser: Browser) => json(await browser.request("GET", "/me/push")).push.browsers as unknown[];

describe("browser notifications", () => {
  it("POST /me/push/test → the push service decrypts exactly the payload, signed for its origin, TTL and urgency set", async () => {
    const { browser } = await newDriver();
    const subscription = await subscribed(browser);
    expect(await sendTest(browser)).toEqual({ sent: 1, removed: 0, failures: [] });
    expect(push.refusals).toEqual([]);
    expect(subscription.messages).toHaveLength(1);
    const [message] = subscription.messages;
    expect(JSON.parse(message!.text)).toEqual({
      title: "Wayline test notification",
      body: "Browser notifications work: your alerts will appear like this.",
      url: "/account",
    });
    expect(message!.ttl).toBe("86400");
    expect(message!.urgency).toBe("high");
    expect(message!.vapid.aud).toBe(push.origin);
    // The shared service has no PUBLIC_URL: its origin is plain http, so the subject is a mailto:.
    expect(message!.vapid.sub).toBe("mailto:postmaster@127.0.0.1");
    const [listed] = (await browsers(browser)) as { lastSuccessAt: string | null }[];
    expect(listed!.lastSuccessAt).not.toBeNull();
    // The account page carries the switch, and says in how many browsers notifications are on.
    const page = await browser.request("GET", "/account");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Browser notifications");
    expect(page.text).toContain("On in 1 browser of yours.");
    // The service worker the switch registers, served as a script at the site's root (its scope).
    const worker = await browser.request("GET", "/sw.js");
    expect(worker.status).toBe(200);
    expect(worker.headers.get("content-type")).toMatch(/javascript/);
    expect(worker.text).toContain('addEventListener("push"');
  });

  it("a 410 subscription is removed, a 500 one is reported as a failure and kept", async () => {
    const { browser } = await newDriver();
    const healthy = await subscribed(browser);
    const gone = await subscribed(browser);
    const failing = await subscribed(browser);
    push.answer(gone.endpoint, 410);
    push.answer(failing.endpoint, 500);

    const first = await sendTest(browser);
    expect(first).toMatchObject({ sent: 1, removed: 1 });
    expect(first.failures).toHaveLength(1);
    expect(first.failures[0]).toMatch(/^127\.0\.0\.1:\d+: HTTP 500/);
    // The endpoint is a capability: failures name its host only.
    expect(first.failures[0]).not.toContain("/push/");
    expect(await browsers(browser)).toHaveLength(2);

    const second = await sendTest(browser);
    expect(second).toMatchObject({ sent: 1, removed: 0 });
    expect(second.failures).toHaveLength(1);
    expect(gone.posts).toBe(1);
    expect(failing.posts).toBe(2);
    expect(healthy.messages).toHaveLength(2);
  });

  it("unsubscribe forgets the driver's own subscription; another driver can neither remove nor take it", async () => {
    const { browser } = await newDriver();
    const { browser: other } = await newDriver();
    const subscription = await subscribed(browser);

    const removeTheirs = await other.request("POST", "/me/push/unsubscribe", {
      json: { endpoint: subscription.endpoint },
    });
    expect(removeTheirs.status).toBe(404);
    const takeTheirs = await other.request("POST", "/me/push/subscribe", { json: subscription.toJSON() });
    expect(takeTheirs.status).toBe(409);
    expect(json(takeTheirs).error.fieldErrors[0]).toMatchObject({ fieldName: "endpoint", errorCode: "UNIQUE" });
    expect(await sendTest(other)).toEqual({ sent: 0, removed: 0, failures: [] });
    expect(await sendTest(browser)).toMatchObject({ sent: 1 });

    // The same browser subscribing again renews its row: still one.
    const again = await browser.request("POST", "/me/push/subscribe", { json: subscription.toJSON() });
    expect(again.status, again.text).toBe(200);
    expect(await browsers(browser)).toHaveLength(1);

    const mine = await browser.request("POST", "/me/push/unsubscribe", { json: { endpoint: subscription.endpoint } });
    expect(mine.status, mine.text).toBe(200);
    expect(await browsers(browser)).toHaveLength(0);
    expect(
      (await browser.request("POST", "/me/push/unsubscribe", { json: { endpoint: subscription.endpoint } })).status,
    ).toBe(404);
    expect(await sendTest(browser)).toEqual({ sent: 0, removed: 0, failures: [] });
    expect(subscription.messages).toHaveLength(1);
  });

  it("endpoints that are not https or reach a private address, and keys that are not keys: 400 on the field", async () => {
    const { browser } = await newDriver();
    const good = push.subscribe(await publicKey(browser)).toJSON();
    const refused = async (body: unknown, field: string) => {
      const page = await browser.request("POST", "/me/push/subscribe", { json: body });
      expect(page.status, page.text).toBe(400);
      expect(json(page).error.errorCode).toBe("VALIDATION");
      expect(json(page).error.fieldErrors.map((f: { fieldName: string }) => f.fieldName)).toContain(field);
    };
    await refused({ ...good, endpoint: good.endpoint.replace("https:", "http:") }, "endpoint");
    await refused({ ...good, endpoint: "https://10.1.2.3/push/x" }, "endpoint");
    await refused({ ...good, endpoint: "https://localhost/push/x" }, "endpoint");
    await refused({ ...good, endpoint: "https://push.example.net/a\nb" }, "endpoint");
    await refused(
      { ...good, keys: { ...good.keys, p256dh: Buffer.alloc(65, 4).toString("base64url") } },
      "keys.p256dh",
    );
    await refused({ ...good, keys: { ...good.keys, auth: "short" } }, "keys.auth");
    await refused({ endpoint: good.endpoint }, "keys");
    expect(await browsers(browser)).toHaveLength(0);
    // Signed out: nothing.
    expect((await new Browser().request("POST", "/me/push/subscribe", { json: good })).status).toBe(401);
  });
});
