import { expect, test, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { hydrated, shot } from "./support/driver";

// The partner console in Chromium, the whole sandbox integration as a new partner meets it:
// sign up, create an app, copy its credentials (and use them for a real token), confirm the
// obligations for production credentials, a test account and vehicle in two clicks, a WAYPOINT
// subscription, a data set through the real API, and the notification in the console. Every page
// gets an axe check (no serious or critical violations).

test.describe.configure({ mode: "serial" });

const partner = {
  name: "Erin Partner",
  email: `e2e.${Date.now().toString(36)}.${process.pid}@partner.example`,
  password: "e2e-partner-password",
};
let appUrl = "";
let sandbox = { clientId: "", clientSecret: "" };
let vehicleId = "";

// Each test has a fresh browser context. The first after the sign-up signs in through the form, as a
// returning partner does (sent to the page asked for); the later ones bring that session's cookies
// along, as the same browser would, rather than filling the form again.
let session: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;
async function signIn(page: Page, to: string) {
  if (session) {
    await page.context().addCookies(session.cookies);
    await page.goto(to);
    await expect(page).toHaveURL((url) => url.pathname + url.search === to);
    return;
  }
  await page.goto(to);
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await page.getByLabel("E-mail").fill(partner.email);
  await page.getByLabel("Password").fill(partner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname + url.search === to);
  session = await page.context().storageState();
}

async function revealed(page: Page, key: string) {
  return (await page.getByTestId(`value-${key}`).textContent())!.trim();
}

async function clientToken(
  request: APIRequestContext,
  path: string,
  creds: { clientId: string; clientSecret: string },
) {
  const res = await request.post(path, {
    form: { grant_type: "client_credentials", client_id: creds.clientId, client_secret: creds.clientSecret },
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

test.beforeAll(({}, testInfo) => {
  partner.email = partner.email.replace("@", `.${testInfo.project.name}@`);
});

test("a partner signs up and creates an app whose copied sandbox credentials get a real token", async ({
  page,
  request,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => undefined);
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await expectAccessible(page);
  await page.getByRole("link", { name: "Create a partner account" }).click();
  await page.getByLabel("Your name").fill(partner.name);
  await page.getByLabel("E-mail").fill(partner.email);
  await page.getByLabel("Password").fill(partner.password);
  await shot(page, "sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your apps" })).toBeVisible();
  await expect(page.getByText("No apps yet")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("App name").fill("E2E Fleet");
  await page.getByLabel("Redirect URIs (one per line)").fill("https://fleet.example/callback");
  await hydrated(page.getByRole("button", { name: "Create app" }));
  await page.getByRole("button", { name: "Create app" }).click();
  await expect(page.getByText("Copy the sandbox client secret now")).toBeVisible();
  sandbox = { clientId: await revealed(page, "clientId"), clientSecret: await revealed(page, "clientSecret") };
  await page.getByRole("button", { name: "Copy clientSecret" }).click();
  await expect(page.getByRole("button", { name: "Copy clientSecret" })).toHaveText("Copied");
  await shot(page, "app-created");
  expect(await clientToken(request, "/sandbox/oauth/token", sandbox)).toBeTruthy();

  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "E2E Fleet" })).toBeVisible();
  appUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId("sandbox-credentials")).toContainText(sandbox.clientId);
  await expect(page.locator("body")).not.toContainText(sandbox.clientSecret);
  await expectAccessible(page);
});

test("confirming the obligations issues production credentials that work at /oauth/token", async ({
  page,
  request,
}) => {
  await signIn(page, appUrl);
  await page.getByRole("button", { name: "Confirm and get production credentials" }).click();
  await expect(page.getByText("Confirm this obligation to get production credentials.").first()).toBeVisible();
  await page.getByLabel(/their Wayline credentials/).check();
  await page.getByLabel(/a link to the Wayline driver site/).check();
  await page.getByLabel(/collected on their behalf/).check();
  await page.getByRole("button", { name: "Confirm and get production credentials" }).click();
  await expect(page.getByText("Production credentials issued")).toBeVisible();
  const production = { clientId: await revealed(page, "clientId"), clientSecret: await revealed(page, "clientSecret") };
  expect(production.clientId).toMatch(/^wl_live_/);
  await shot(page, "production-credentials");
  expect(await clientToken(request, "/oauth/token", production)).toBeTruthy();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("production-credentials")).toContainText(production.clientId);
});

test("a sandbox test account and a vehicle in two clicks, then a WAYPOINT subscription on the vehicle", async ({
  page,
}) => {
  await signIn(page, appUrl);
  await page.getByRole("link", { name: "Connected accounts" }).click();
  await expect(page.getByText("No sandbox accounts yet")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create test account" }).click();
  await expect(page.getByText("Test account created")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Add test vehicle" }).click();
  await expect(page.getByText("Test vehicle created.")).toBeVisible();
  vehicleId = await revealed(page, "vehicleId");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("table")).toContainText(vehicleId);
  await shot(page, "connected-accounts");
  await expectAccessible(page);

  await page.getByRole("link", { name: "Subscriptions" }).click();
  await expect(page.getByText("No sandbox subscriptions yet")).toBeVisible();
  await expect(page.getByLabel("Scope")).toHaveValue("VEHICLE");
  await page.getByLabel("Event type").selectOption("IGNITIONSTATUS");
  await expect(page.getByLabel("Notification period").locator("option")).toHaveText([
    "STATECHANGE",
    "INITIALSTATE",
    "ONETIME",
  ]);
  await page.getByLabel("Event type").selectOption("VEHICLEHARSHACCEL");
  await expect(page.getByLabel("Notification period").locator("option")).toHaveText([
    "CONTINUOUS",
    "INITIALSTATE",
    "STATECHANGE",
    "ONETIME",
  ]);
  await page.getByLabel("Event type").selectOption("WAYPOINT");
  await expect(page.getByLabel("Notification period").locator("option")).toHaveText(["CONTINUOUS", "ONETIME"]);
  await page.getByLabel("Delivery").selectOption("HTTP_POST");
  await page.getByLabel("Webhook URL (https)").fill("http://not-https.example/hook");
  await page.getByRole("button", { name: "Create subscription" }).click();
  await expect(page.locator("#f-postUrl-error")).toBeVisible();
  await page.getByLabel("Webhook URL (https)").fill("https://fleet.example/hook");
  await page.getByRole("button", { name: "Create subscription" }).click();
  await expect(page.getByText("Subscription created.")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("list", { name: "Subscriptions" })).toContainText("WAYPOINT");
  await expect(page.getByRole("list", { name: "Subscriptions" })).toContainText("active");
  await shot(page, "subscriptions");
  await expectAccessible(page);
});

test("a data set posted through the real API shows up as a notification, with its JSON", async ({ page, request }) => {
  const token = await clientToken(request, "/sandbox/oauth/token", sandbox);
  const at = new Date(Date.now() - 60_000)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "+0000");
  const posted = await request.post(`/sandbox/api/vehicle/${vehicleId}/dataSet/`, {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      timestamp: at,
      ignitionStatus: "RUNNING",
      datum: [{ timestamp: at, key: "GEN_WAYPOINT", value: "39.9612,-82.9988" }],
    },
  });
  expect(posted.status()).toBe(200);

  await signIn(page, `${appUrl}/notifications?env=sandbox`);
  const row = page.getByRole("row").filter({ hasText: "WAYPOINT" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(vehicleId);
  await shot(page, "notifications");
  await expectAccessible(page);
  // The first link is the notification's id; the vehicle is linked too.
  await row.getByRole("link").first().click();
  await expect(page.getByTestId("notification-json")).toContainText('"recordedWaypoint"');
  await expect(page.getByTestId("notification-json")).toContainText(`"vehicleId": ${vehicleId}`);
  await shot(page, "notification");
  await expectAccessible(page);
  // No worker runs in this service: the delivery waits, with no attempt yet, and is not resendable.
  const attempts = page.getByRole("region", { name: "Delivery attempts" });
  await expect(attempts).toContainText("https://fleet.example/hook");
  await expect(attempts).toContainText("pending");
  await expect(attempts).toContainText("No attempt yet.");
  await page.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByRole("form", { name: "Resend this notification" }).getByRole("alert")).toContainText(
    "Nothing to resend",
  );
});

test("a test notification from the subscriptions page; the delivery filter finds it pending", async ({ page }) => {
  await signIn(page, `${appUrl}/subscriptions?env=sandbox`);
  await page.getByRole("button", { name: "Send a test notification" }).click();
  await expect(page.getByText("Test notification made")).toBeVisible();
  const id = await revealed(page, "notificationId");
  await page.getByRole("button", { name: "Done" }).click();
  await page.goto(`${appUrl}/notifications?env=sandbox`);
  await page.getByLabel("Delivery").selectOption("pending");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId(`notification-${id}`)).toContainText("(test)");
  await expect(page.getByTestId(`state-${id}`)).toHaveText("pending");
  await expectAccessible(page);
});

test("the webhook signing secret: revealed on request, rotated with the old one signing for 24 h", async ({ page }) => {
  await signIn(page, appUrl);
  const secrets = page.getByRole("list", { name: "Signing secrets in use" });
  await expect(secrets).toContainText("current");
  await page.getByRole("button", { name: "Reveal" }).click();
  const first = await revealed(page, "signingSecret");
  expect(first).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "Done" }).click();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: "Rotate signing secret" }).click();
  const second = await revealed(page, "signingSecret");
  expect(second).toMatch(/^whsec_/);
  expect(second).not.toBe(first);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(secrets).toContainText("signs until");
  await expect(secrets.getByRole("listitem")).toHaveCount(2);
  await shot(page, "signing-secret");
  await expectAccessible(page);
});

test("the app-event endpoint: a refused URL is explained under its field, a valid one is saved and shown, cleared it is gone", async ({
  page,
}) => {
  await signIn(page, appUrl);
  const events = page.getByTestId("app-events");
  await expect(events).toContainText("ACCESSREVOKED");
  await expect(page.getByTestId("app-events-sandbox")).toHaveText(
    "No endpoint: the events are in the app's event feed only.",
  );
  const form = page.getByRole("form", { name: "Sandbox app-event endpoint" });
  const field = form.getByLabel("Sandbox endpoint URL");
  // Hydrated first: posted without JavaScript, the form is answered by a redirect, not in place.
  await page.waitForLoadState("networkidle");
  await field.fill("http://receiver.partner.io/app-events");
  await form.getByRole("button", { name: "Save sandbox endpoint" }).click();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(form).toContainText("This URL cannot receive events");
  await expect(form.getByRole("alert")).toContainText("not saved");
  await expect(page.getByTestId("app-events-sandbox")).toContainText("No endpoint");

  await field.fill("https://receiver.partner.io/app-events");
  await form.getByRole("button", { name: "Save sandbox endpoint" }).click();
  await expect(page.getByTestId("app-events-sandbox")).toHaveText("Sent to https://receiver.partner.io/app-events.");
  await expect(form.getByLabel("Sandbox endpoint URL")).toHaveValue("https://receiver.partner.io/app-events");
  await shot(page, "app-event-endpoint");
  await expectAccessible(page);

  await form.getByLabel("Sandbox endpoint URL").fill("");
  await form.getByRole("button", { name: "Save sandbox endpoint" }).click();
  await expect(page.getByTestId("app-events-sandbox")).toHaveText(
    "No endpoint: the events are in the app's event feed only.",
  );
});

test("at 375 px the notifications page fits the screen", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signIn(page, `${appUrl}/notifications?env=sandbox`);
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, "notifications-375");
  await expectAccessible(page);
});

test("the API reference is public", async ({ page }) => {
  // Its search, schemas, try-it and axe checks are in docs-reference.spec.ts.
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: "Wayline API reference" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Guides" }).getByRole("link", { name: "Quickstart" }),
  ).toBeVisible();
  await shot(page, "docs");
});

test("the demo partner of the seed signs in and finds the demo app", async ({ page }) => {
  await page.goto("/console/sign-in");
  await page.getByLabel("E-mail").fill("demo.partner@wayline.example");
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("list", { name: "Apps" })).toContainText("Wayline Demo");
});
