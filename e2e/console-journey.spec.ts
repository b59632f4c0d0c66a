import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { verifyWebhook } from "../test/helpers/https-receiver";
import { startDeliveryService, type Answered, type DeliveryService } from "./support/delivery-service";
import { hydrated, keepOnLoopback, pageErrors, shot } from "./support/driver";

// The whole partner journey in Chromium, on the run's service with the delivery worker on
// and a real HTTPS receiver of its own on loopback (e2e/support/delivery-service.ts): sign up, create an app, copy its credentials (and get
// a token with what was copied), a sandbox account and vehicle, a WAYPOINT subscription to the
// receiver, a simulation that drives the vehicle, deliveries in the console's log, the receiver
// failing (500) and the retry, a 410 that deactivates the delivery, and its reactivation. The
// browser does every partner step; the test code only chooses the receiver's answers and checks
// what the receiver got. Every console page gets an axe check and a screenshot.

let journey: DeliveryService;

// A journey: it runs in the desktop project only (no @phone tag, e2e/support/phone.ts).
test.beforeAll(async () => {
  journey = await startDeliveryService();
});

test.afterAll(async () => {
  await journey?.stop();
});

test.beforeEach(async ({ context }) => keepOnLoopback(context));

/** Clicks a value's copy button and answers what the clipboard then holds. */
async function copied(page: Page, key: string): Promise<string> {
  const button = page.getByRole("button", { name: `Copy ${key}` });
  await button.click();
  await expect(button).toHaveText("Copied");
  return page.evaluate(() => navigator.clipboard.readText());
}

/** The first webhook (after `from`) matching `match`, once the receiver has it. */
async function webhook(
  answered: Answered[],
  what: string,
  match: (a: Answered) => boolean,
  from = 0,
): Promise<Answered> {
  await expect.poll(() => answered.slice(from).some(match), { message: what, timeout: 30_000 }).toBe(true);
  return answered.slice(from).find(match)!;
}

/** The whole second of a webhook's event time (the simulator stamps data sets with wall-clock seconds). */
function eventSecond(a: Answered): number {
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})\+0000$/.exec(
    (JSON.parse(a.request.body) as { eventTimestamp: string }).eventTimestamp,
  );
  if (!at) throw new Error(`unexpected eventTimestamp in ${a.request.body}`);
  const [, y, mo, d, h, mi, se] = at.map(Number);
  return Date.UTC(y!, mo! - 1, d, h, mi, se) / 1000;
}

/** Server-rendered pages show the worker's progress on reload, as a partner refreshing would see it. */
async function untilShown(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
}

/** A tab of the app's section navigation (another "Notifications" link may be on the page). */
const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "App sections" }).getByRole("link", { name, exact: true });

const attemptRows = (page: Page): Locator =>
  page
    .getByRole("region", { name: /^Attempts of delivery / })
    .getByRole("row")
    .filter({ has: page.getByRole("cell") });

test("a partner goes from sign-up to webhooks that arrive, fail, retry, deactivate with a 410 and come back after reactivation", async ({
  page,
  context,
}, testInfo) => {
  // A ceiling: about a minute on a quiet machine, several on a busy one (webhooks, retries, a simulation).
  test.setTimeout(300_000);
  const { service, receiver } = journey;
  const consoleUrl = `${service.baseUrl}/console`;
  const errors = pageErrors(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: service.baseUrl });

  // Sign up.
  await page.goto(`${consoleUrl}/sign-up`);
  await expectAccessible(page);
  await page.getByLabel("Your name").fill("Jo Journey");
  await page.getByLabel("E-mail").fill(`journey.${Date.now().toString(36)}.${process.pid}@partner.example`);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await shot(page, "journey-01-sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your apps" })).toBeVisible();
  await expectAccessible(page);

  // Create an app and copy its shown-once sandbox credentials; what the clipboard holds gets a token.
  await page.getByLabel("App name").fill("Journey Fleet");
  await hydrated(page.getByRole("button", { name: "Create app" }));
  await page.getByRole("button", { name: "Create app" }).click();
  await expect(page.getByText("Copy the sandbox client secret now")).toBeVisible();
  const clientId = await copied(page, "clientId");
  const clientSecret = await copied(page, "clientSecret");
  expect(clientId).toBe((await page.getByTestId("value-clientId").textContent())!.trim());
  expect(clientSecret).toBe((await page.getByTestId("value-clientSecret").textContent())!.trim());
  await shot(page, "journey-02-app-created");
  await expectAccessible(page);
  const token = await fetch(`${service.baseUrl}/sandbox/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  expect(token.status, await token.clone().text()).toBe(200);
  expect(((await token.json()) as { access_token?: string }).access_token).toBeTruthy();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Journey Fleet" })).toBeVisible();
  const appUrl = `${consoleUrl}/apps/${new URL(page.url()).pathname.split("/")[3]}`;
  expect(page.url()).toBe(appUrl);

  // The webhook signing secret, revealed on the app page: the receiver checks signatures with it.
  await page.getByRole("button", { name: "Reveal" }).click();
  const signingSecret = await copied(page, "signingSecret");
  expect(signingSecret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("sandbox-credentials")).toContainText(clientId);
  await shot(page, "journey-03-app");
  await expectAccessible(page);

  // A sandbox account and a vehicle, in two clicks.
  await tab(page, "Connected accounts").click();
  await page.getByRole("button", { name: "Create test account" }).click();
  await expect(page.getByText("Test account created")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Add test vehicle" }).click();
  await expect(page.getByText("Test vehicle created.")).toBeVisible();
  const vehicleId = Number((await page.getByTestId("value-vehicleId").textContent())!.trim());
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("table")).toContainText(String(vehicleId));
  await shot(page, "journey-04-connected-accounts");
  await expectAccessible(page);

  // WAYPOINT on that vehicle, posted to the local HTTPS receiver.
  await tab(page, "Subscriptions").click();
  await expect(page.getByLabel("Scope")).toHaveValue("VEHICLE");
  await expect(page.getByLabel("Vehicle", { exact: true })).toHaveValue(String(vehicleId));
  await page.getByLabel("Event type").selectOption("WAYPOINT");
  await page.getByLabel("Notification period").selectOption("CONTINUOUS");
  await page.getByLabel("Delivery").selectOption("HTTP_POST");
  await page.getByLabel("Webhook URL (https)").fill(receiver.hookUrl);
  await page.getByRole("button", { name: "Create subscription" }).click();
  await expect(page.getByText("Subscription created.")).toBeVisible();
  const subscriptionId = (await page.getByTestId("value-subscriptionId").textContent())!.trim();
  await page.getByRole("button", { name: "Done" }).click();
  const subscription = page.getByTestId(`subscription-${subscriptionId}`);
  await expect(subscription).toContainText("WAYPOINT");
  await expect(subscription).toContainText(receiver.hookUrl);
  await expect(subscription.getByText("active", { exact: true })).toBeVisible();
  await shot(page, "journey-05-subscription");
  await expectAccessible(page);

  // A real-time simulation on a template: a data set (and so a WAYPOINT) about every second, for
  // longer than the rest of the journey takes.
  await tab(page, "Simulator").click();
  // This service has no demo run, so the first simulator page builds the road graphs (seconds on a busy machine).
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox simulator" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByLabel("Sandbox vehicle")).toHaveValue(String(vehicleId));
  await page.getByRole("radio", { name: "Template" }).check();
  await page.getByRole("combobox", { name: "Template" }).selectOption("columbus-south-to-north");
  await page.getByLabel("Real time").check();
  await page.getByLabel("Speed-up (1–60×)").fill("5");
  await page.getByLabel("Collection period (s)").fill("5");
  await page.getByRole("button", { name: "Start simulation" }).click();
  await expect(page.getByTestId("watched-run")).toHaveAttribute("data-status", "running", { timeout: 15_000 });
  await shot(page, "journey-06-simulator");
  await expectAccessible(page);

  // Deliveries arrive, signed with the app's secret, and the console's log shows them delivered.
  const first = await webhook(receiver.answered, "a delivered WAYPOINT", (a) => a.status === 200);
  const firstBody = verifyWebhook(signingSecret, first.request) as Record<string, unknown>;
  expect(firstBody).toMatchObject({
    id: first.notificationId,
    _type: "WAYPOINT",
    vehicleId,
    subscriptionId: Number(subscriptionId),
  });
  // The simulator is a tab of the app: the others are one click away.
  await tab(page, "Notifications").click();
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
  // A new notification every second pushes older ones off the first page: the partner filters to
  // the delivered WAYPOINTs of the vehicle, and the newest of those is one the receiver got.
  await page.getByLabel("Vehicle id").fill(String(vehicleId));
  await page.getByLabel("Type").selectOption("WAYPOINT");
  await page.getByLabel("Delivery").selectOption("delivered");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=delivered/);
  const newest = page.getByRole("region", { name: "Notifications table" }).getByRole("row").nth(1);
  await untilShown(page, () => expect(newest).toBeVisible());
  const shownId = Number(await newest.getByRole("link").first().textContent());
  const shown = receiver.answered.find((a) => a.notificationId === shownId && a.status === 200);
  expect(shown, `notification ${shownId} answered 200 by the receiver`).toBeDefined();
  expect(verifyWebhook(signingSecret, shown!.request)).toMatchObject({ id: shownId, _type: "WAYPOINT", vehicleId });
  const shownRow = page.getByTestId(`notification-${shownId}`);
  await expect(shownRow.getByRole("cell")).toHaveText([
    String(shownId),
    "WAYPOINT",
    new RegExp(`#${vehicleId}$`),
    /ago|just now/,
    "200",
    "delivered",
  ]);
  // The event time in the partner's time zone; the exact wire value on hover.
  await expect(shownRow.locator("time")).toHaveAttribute("data-wire", /^\d{8}T\d{6}\+0000$/);
  await shot(page, "journey-07-notifications");
  await expectAccessible(page);
  await shownRow.getByRole("link").first().click();
  await expect(page.getByRole("heading", { level: 1, name: `Notification ${shownId}` })).toBeVisible();
  const delivered = attemptRows(page);
  await expect(delivered).toHaveCount(1);
  await expect(delivered.first()).toContainText("DELIVERED");
  await expect(delivered.first()).toContainText(receiver.hookUrl);
  await delivered.first().getByText("Request headers and signed string").click();
  // The log shows byte for byte the signature header the receiver got.
  await expect(delivered.first()).toContainText(`webhook-signature: ${shown!.request.headers["webhook-signature"]}`);
  await shot(page, "journey-08-delivered");
  await expectAccessible(page);

  // The receiver fails: the worker retries the same notification, and the log shows each try.
  const failFrom = receiver.answered.length;
  receiver.answerWith(500);
  const retried = await webhook(
    receiver.answered,
    "a notification answered 500 twice",
    (a) =>
      a.status === 500 &&
      receiver.answered.slice(failFrom).filter((b) => b.notificationId === a.notificationId && b.status === 500)
        .length >= 2,
    failFrom,
  );
  const tries = receiver.answered.filter((a) => a.notificationId === retried.notificationId);
  expect(tries.length).toBeGreaterThan(1);
  // A retry is the same webhook again: same id, same body, signed anew.
  expect(new Set(tries.map((a) => a.request.body)).size).toBe(1);
  for (const a of tries) verifyWebhook(signingSecret, a.request);
  await page.goto(`${appUrl}/notifications/${retried.notificationId}`);
  const failing = attemptRows(page);
  await untilShown(page, async () => expect(failing.nth(1)).toBeVisible());
  for (const i of [0, 1]) {
    await expect(failing.nth(i)).toContainText("RETRY");
    await expect(failing.nth(i)).toContainText("500");
    await expect(failing.nth(i)).toContainText("receiver told to answer 500");
  }
  await shot(page, "journey-09-retrying");
  await expectAccessible(page);

  // 410 Gone: the delivery is deactivated, with the reason on the subscriptions page.
  receiver.answerWith(410);
  const gone = await webhook(receiver.answered, "a webhook answered 410", (a) => a.status === 410);
  await page.goto(`${appUrl}/notifications/${gone.notificationId}`);
  const goneRows = attemptRows(page);
  await untilShown(page, async () => expect(goneRows.filter({ hasText: "DEACTIVATED" })).toHaveCount(1));
  await expect(goneRows.filter({ hasText: "DEACTIVATED" })).toContainText("410");
  await expect(page.getByText(/delivery deactivated: Receiver answered HTTP 410 at/)).toBeVisible();
  await shot(page, "journey-10-deactivated-log");
  await expectAccessible(page);

  await tab(page, "Subscriptions").click();
  const deliveries = subscription.getByRole("list", { name: `Deliveries of subscription ${subscriptionId}` });
  await expect(deliveries.getByText("inactive", { exact: true })).toBeVisible();
  await expect(deliveries).toContainText(/Receiver answered HTTP 410 at \d{4}-/);
  await shot(page, "journey-11-deactivated");
  await expectAccessible(page);

  // Reactivated (with the receiver healthy again): active, and new WAYPOINTs arrive.
  receiver.answerWith(200);
  const reactivatedFrom = Math.floor(Date.now() / 1000);
  await deliveries.getByRole("button", { name: "Reactivate" }).click();
  await expect(deliveries.getByText("active", { exact: true })).toBeVisible();
  await expect(deliveries).not.toContainText("Receiver answered HTTP 410");
  await shot(page, "journey-12-reactivated");
  await expectAccessible(page);
  // A retry of an older notification could also arrive now: only a data set driven after the
  // click (its event time is a later second) shows that new notifications are delivered again.
  const back = await webhook(
    receiver.answered,
    "a WAYPOINT of a data set after the reactivation",
    (a) => a.status === 200 && eventSecond(a) > reactivatedFrom,
  );
  expect(verifyWebhook(signingSecret, back.request)).toMatchObject({
    id: back.notificationId,
    _type: "WAYPOINT",
    vehicleId,
  });
  await page.goto(`${appUrl}/notifications/${back.notificationId}`);
  const backRows = attemptRows(page);
  await untilShown(page, async () => expect(backRows.first()).toContainText("DELIVERED"));
  await expect(backRows).toHaveCount(1);
  await expect(page.getByText("Last receiver status: 200.")).toBeVisible();
  await shot(page, "journey-13-delivered-again");
  await expectAccessible(page);

  // Done: the partner stops the run on the simulator tab (it watches the running one), so the
  // run's shared delivery service stops sending to a receiver that goes away with this spec.
  await tab(page, "Simulator").click();
  const watched = page.getByTestId("watched-run");
  await expect(watched).toHaveAttribute("data-status", "running");
  await watched.getByRole("button", { name: "Stop run" }).click();
  await expect(watched).toHaveAttribute("data-status", "stopped", { timeout: 15_000 });

  expect(errors).toEqual([]);
  testInfo.annotations.push({
    type: "receiver",
    description:
      `${receiver.answered.length} webhooks: ` +
      `${["200", "500", "410"].map((s) => `${receiver.answered.filter((a) => String(a.status) === s).length}×${s}`).join(", ")}`,
  });
});
