import { expect, test } from "@playwright/test";
import { keepOnLoopback } from "./support/driver";

// The console's copy buttons (client ids, shown-once secrets, curl lines) on the public API
// reference, which has them without signing in. "Copied" must mean the clipboard holds the value:
// a partner who believes a shown-once secret was copied clicks Done and has lost it.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

test("Copy puts the value on the clipboard and says Copied", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await page.goto("/docs");
  const value = (await page.getByTestId("value-curl").first().textContent())!.trim();
  // A click before the page has hydrated meets a button without its handler yet (the server's
  // HTML): click again until the page answers; copying twice copies the same value.
  await expect(async () => {
    await page.getByRole("button", { name: "Copy curl" }).first().click();
    await expect(page.getByRole("button", { name: "Copy curl" }).first()).toHaveText("Copied", { timeout: 1_000 });
  }).toPass();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
});

test("without a clipboard (a console served over plain http) Copy says it did not copy and selects the value", async ({
  page,
}) => {
  // Browsers leave navigator.clipboard undefined outside secure contexts; the test origin is
  // loopback (secure), so the page gets what a plain-http origin would.
  await page.addInitScript(() => void delete (Navigator.prototype as { clipboard?: unknown }).clipboard);
  await page.goto("/docs");
  expect(await page.evaluate(() => navigator.clipboard)).toBeUndefined();
  const value = (await page.getByTestId("value-curl").first().textContent())!.trim();
  const button = page.getByRole("button", { name: "Copy curl" }).first();
  // Clicked again while the page is still hydrating (see above).
  await expect(async () => {
    await button.click();
    await expect(page.getByRole("status").filter({ hasText: "Not copied" })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(button).toHaveText("Copy");
  expect((await page.evaluate(() => window.getSelection()?.toString()))?.trim()).toBe(value);
});
