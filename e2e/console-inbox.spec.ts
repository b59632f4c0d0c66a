import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { expectAccessible } from "./support/accessible";
import { keepOnLoopback, shot } from "./support/driver";

// The sandbox inbox in Chromium: a new partner's app shows its inbox URL with a Copy button, and
// the inbox page shows a request arrive while it is open (no reload), with its headers, body and
// whether its Standard Webhooks signature verifies; switched to answer 500, the next request says
// so. Requests come from outside the browser over real HTTP, signed with the app's revealed secret
// (the worker's way to the inbox is covered by test/integration/shared/sandbox-inbox.test.ts).

test.beforeEach(async ({ context }) => keepOnLoopback(context));

test("a request posted to the inbox URL appears on the open inbox page, its signature verified", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL }).catch(() => undefined);
  const email = `inbox.${Date.now().toString(36)}.${process.pid}.${testInfo.project.name}@partner.example`;
  await page.goto("/console/sign-up");
  await page.getByLabel("Your name").fill("Ines Partner");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByLabel("App name").fill("Inbox Fleet");
  // Hydrated first: posted without JavaScript, the form gets a 303 and no one-time reveal.
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Create app" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Inbox Fleet" })).toBeVisible();

  // The inbox URL on the app page, with its Copy button.
  const inboxUrl = (await page.getByTestId("value-Inbox URL").textContent())!.trim();
  expect(inboxUrl).toMatch(/^http:\/\/localhost:\d+\/sandbox\/inbox\/[A-Za-z0-9_-]{32}$/);
  await page.getByRole("button", { name: "Copy Inbox URL" }).click();
  await expect(page.getByRole("button", { name: "Copy Inbox URL" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inboxUrl);

  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Reveal" }).click();
  const secret = (await page.getByTestId("value-signingSecret").textContent())!.trim();
  await page.getByRole("button", { name: "Done" }).click();

  await page.getByRole("link", { name: "Sandbox inbox" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox inbox" })).toBeVisible();
  await expect(page.getByTestId("inbox-status")).toContainText(
    "No requests yet. New requests appear here as they arrive.",
  );
  await expectAccessible(page);
  // A mark on this document: still there after the request shows, so the page was not reloaded.
  await page.evaluate(() => ((window as unknown as { inboxMark: string }).inboxMark = "same page"));

  const post = async (body: string) => {
    const now = new Date();
    const id = `msg_${Date.now()}`;
    const res = await fetch(inboxUrl.replace(/^http:\/\/localhost:\d+/, baseURL!), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": new Webhook(secret).sign(id, now, body),
      },
      body,
    });
    return res.status;
  };
  expect(await post(JSON.stringify({ _type: "WAYPOINT", vehicleId: 7 }))).toBe(200);

  const first = page.getByRole("list", { name: "Requests received" }).getByRole("listitem").first();
  await expect(first).toContainText('"_type": "WAYPOINT"');
  await expect(first.getByTestId("signature-verdict")).toHaveText("Signature verifies");
  await expect(first).toContainText("answered 200");
  await first.getByText(/^Headers/).click();
  await expect(first).toContainText("webhook-signature");
  expect(await page.evaluate(() => (window as unknown as { inboxMark?: string }).inboxMark)).toBe("same page");
  await expectAccessible(page);
  await shot(page, "inbox");

  // Told to answer 500: the next request is answered so, and shows it.
  await page.getByRole("combobox", { name: "The inbox answers" }).selectOption("500");
  const saved = page.waitForResponse((r) => r.url().endsWith("/console/actions/set-inbox-answer"));
  await page.getByRole("button", { name: "Save" }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByRole("combobox", { name: "The inbox answers" })).toHaveValue("500");
  await page.evaluate(() => ((window as unknown as { inboxMark: string }).inboxMark = "after save"));
  expect(await post(JSON.stringify({ _type: "IGNITION" }))).toBe(500);
  await expect(page.getByRole("list", { name: "Requests received" }).getByRole("listitem").first()).toContainText(
    "answered 500",
  );
  await expect(page.getByTestId("inbox-status")).toContainText("2 requests");
  expect(await page.evaluate(() => (window as unknown as { inboxMark?: string }).inboxMark)).toBe("after save");
});

test("without EventSource the inbox page polls, and a request still appears without reload", async ({
  page,
  baseURL,
}, testInfo) => {
  await page.addInitScript(() => void delete (window as { EventSource?: unknown }).EventSource);
  const email = `inbox-poll.${Date.now().toString(36)}.${process.pid}.${testInfo.project.name}@partner.example`;
  await page.goto("/console/sign-up");
  await page.getByLabel("Your name").fill("Paul Partner");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByLabel("App name").fill("Polling Fleet");
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Create app" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Polling Fleet" })).toBeVisible();
  const inboxUrl = (await page.getByTestId("value-Inbox URL").textContent())!.trim();

  await page.getByRole("link", { name: "Sandbox inbox" }).first().click();
  await expect(page.getByTestId("inbox-status")).toContainText("Checking for new requests every 2 seconds.");
  await page.evaluate(() => ((window as unknown as { inboxMark: string }).inboxMark = "same page"));
  const res = await fetch(inboxUrl.replace(/^http:\/\/localhost:\d+/, baseURL!), {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: "polled request",
  });
  expect(res.status).toBe(200);
  const first = page.getByRole("list", { name: "Requests received" }).getByRole("listitem").first();
  await expect(first).toContainText("polled request");
  await expect(first.getByTestId("signature-verdict")).toHaveText("Not signed");
  expect(await page.evaluate(() => (window as unknown as { inboxMark?: string }).inboxMark)).toBe("same page");
  await expectAccessible(page);
});
