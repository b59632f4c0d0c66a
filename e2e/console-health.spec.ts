import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { startDeliveryService, type DeliveryService } from "./support/delivery-service";
import { hydrated, keepOnLoopback, pageErrors, shot } from "./support/driver";

// The console's delivery health page in Chromium, at desktop and phone width, on the run's service
// with the delivery worker on and a real HTTPS receiver of its own (e2e/support/delivery-service.ts): a
// partner's app sends test notifications that the receiver answers 200, then 500 (retried), then
// 200 again; the Delivery health tab then shows the figures the receiver's log makes (attempts,
// delivered, failures by status), the charts drawn by Recharts, the backlog and the state.
// Figures are checked exactly in test/integration/shared/console-health.test.ts; here, what a person sees.

let service: DeliveryService;

test.beforeAll(async () => {
  service = await startDeliveryService();
});

test.afterAll(async () => {
  await service?.stop();
});

test.beforeEach(async ({ context }) => keepOnLoopback(context));

const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "App sections" }).getByRole("link", { name, exact: true });

test("the Delivery health tab charts an app's attempts, latency and failures, with its backlog and state", async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const { service: svc, receiver } = service;
  const errors = pageErrors(page);
  const consoleUrl = `${svc.baseUrl}/console`;

  await page.goto(`${consoleUrl}/sign-up`);
  await page.getByLabel("Your name").fill("Hana Health");
  await page
    .getByLabel("E-mail")
    .fill(`health.${testInfo.project.name}.${Date.now().toString(36)}.${process.pid}@partner.example`);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Your apps" })).toBeVisible();
  // A form clicked before the page is hydrated posts without JavaScript (a plain page, no reveal).
  await hydrated(page.getByRole("button", { name: "Create app" }));
  await page.getByLabel("App name").fill("Health Fleet");
  await page.getByRole("button", { name: "Create app" }).click();
  await expect(page.getByText("Copy the sandbox client secret now")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Health Fleet" })).toBeVisible();
  const appUrl = `${svc.baseUrl}${new URL(page.url()).pathname}`;

  // Before any delivery the page says how to get one.
  await tab(page, "Delivery health").click();
  await expect(page.getByRole("heading", { level: 1, name: "Delivery health" })).toBeVisible();
  await expect(page.getByText("No sandbox deliveries yet")).toBeVisible();
  await expectAccessible(page);

  await tab(page, "Connected accounts").click();
  await page.getByRole("button", { name: "Create test account" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Add test vehicle" }).click();
  await expect(page.getByText("Test vehicle created.")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  await tab(page, "Subscriptions").click();
  await page.getByLabel("Event type").selectOption("WAYPOINT");
  await page.getByLabel("Notification period").selectOption("CONTINUOUS");
  await page.getByLabel("Delivery").selectOption("HTTP_POST");
  await page.getByLabel("Webhook URL (https)").fill(receiver.hookUrl);
  await page.getByRole("button", { name: "Create subscription" }).click();
  const subscriptionId = (await page.getByTestId("value-subscriptionId").textContent())!.trim();
  await page.getByRole("button", { name: "Done" }).click();

  // Test notifications: two answered 200, one answered 500 (and retried) until the receiver is
  // told to answer 200 again. The receiver's log is what the figures must match.
  const sent: number[] = [];
  // Each from the subscriptions page, reached by its tab (a client-side navigation: the form is live).
  const sendTest = async () => {
    await page
      .getByTestId(`subscription-${subscriptionId}`)
      .getByRole("button", { name: "Send a test notification" })
      .click();
    sent.push(Number((await page.getByTestId("value-notificationId").textContent())!.trim()));
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("heading", { level: 1, name: `Notification ${sent.at(-1)}` })).toBeVisible();
    await tab(page, "Subscriptions").click();
    await expect(page.getByRole("heading", { level: 1, name: "Subscriptions" })).toBeVisible();
  };
  const answered = (id: number, status: number) =>
    receiver.answered.some((a) => a.notificationId === id && a.status === status);
  await sendTest();
  await sendTest();
  await expect.poll(() => sent.every((id) => answered(id, 200)), { timeout: 30_000 }).toBe(true);
  receiver.answerWith(500);
  await sendTest();
  await expect
    .poll(() => receiver.answered.filter((a) => a.status === 500).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(2);
  receiver.answerWith(200);
  await expect.poll(() => answered(sent[2]!, 200), { timeout: 30_000 }).toBe(true);
  const mine = () => receiver.answered.filter((a) => sent.includes(a.notificationId));
  const failed = mine().filter((a) => a.status === 500).length;

  await page.goto(`${appUrl}/health?env=sandbox&window=1h`);
  const app = page.getByTestId("health-app");
  const hour = app.getByTestId("health-app-totals").locator('tr[data-window="1h"]');
  // The worker records an attempt just after the receiver answers: reload until all are there.
  await expect(async () => {
    await page.reload();
    await expect(hour.locator('[data-cell="attempts"]')).toHaveText(String(mine().length));
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] });
  const rate = (3 / (3 + failed)) * 100;
  await expect(hour.locator('[data-cell="success"]')).toHaveText(`${(Math.floor(rate * 10) / 10).toFixed(1)} %`);
  await expect(hour.locator('[data-cell="p50"]')).toHaveText(/^\d+ ms$/);
  await expect(hour.locator('[data-cell="p95"]')).toHaveText(/^\d+ ms$/);
  await expect(app.getByTestId("health-app-backlog").locator('[data-cell="pending"]')).toHaveText("0");

  // The charts: stacked attempts (delivered and failed bars), the latency lines, failures by status.
  const attempts = page.getByTestId("health-app-attempts-chart");
  await expect(attempts.locator("svg.recharts-surface").first()).toBeVisible();
  await expect(attempts.locator(".recharts-bar-rectangle path, .recharts-bar-rectangle rect").first()).toBeVisible();
  await expect(attempts.getByText("Delivered")).toBeVisible();
  await expect(attempts.getByText("Failed")).toBeVisible();
  const latency = page.getByTestId("health-app-latency-chart");
  await expect(latency.locator(".recharts-line-curve").first()).toBeAttached();
  await expect(latency.getByText("p95")).toBeVisible();
  const failures = page.getByTestId("health-app-failures-chart");
  await expect(failures.getByText("500", { exact: true })).toBeVisible();
  await expect(failures.locator(".recharts-bar-rectangle")).toHaveCount(1);

  // The delivery itself: its target and state, and the window switch.
  const section = page.getByRole("region", { name: new RegExp(`subscription ${subscriptionId} `) });
  await expect(section).toContainText(receiver.hookUrl);
  await expect(section.getByText("active", { exact: true })).toBeVisible();
  await shot(page, `health-${testInfo.project.name}`);
  await expectAccessible(page);

  await page.getByRole("navigation", { name: "Window" }).getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/window=7d/);
  await expect(
    page.getByRole("navigation", { name: "Window" }).getByRole("link", { name: "Last 7 days" }),
  ).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("health-app-attempts-chart").locator("svg.recharts-surface").first()).toBeVisible();
  expect(errors).toEqual([]);
});
