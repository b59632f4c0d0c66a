import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { keepOnLoopback } from "./support/driver";

// A console that speaks human (issue 20, point 2), in Chromium at desktop and phone width: the app
// just created is listed while its one-time secret is on screen.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

async function signUpWithApp(page: Page, who: string, appName: string) {
  await page.goto("/console/sign-up");
  await page.getByLabel("Your name").fill("Hugo Partner");
  await page.getByLabel("E-mail").fill(`${who}.${Date.now().toString(36)}.${process.pid}.${test.info().project.name}@partner.example`);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("No apps yet")).toBeVisible();
  await page.getByLabel("App name").fill(appName);
  // Hydrated first: posted without JavaScript, the form gets a 303 and no one-time reveal.
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Create app" }).click();
}

test("the app just created is in the list while its one-time secret is shown", async ({ page }) => {
  await signUpWithApp(page, "listed", "Listed Fleet");
  await expect(page.getByText("Copy the sandbox client secret now")).toBeVisible();
  await expect(page.getByRole("list", { name: "Apps" }).getByRole("link", { name: /Listed Fleet/ })).toBeVisible();
  await expect(page.getByText("No apps yet")).toHaveCount(0);
  // The secret is still on screen after the list refreshed.
  await expect(page.getByTestId("value-clientSecret")).not.toBeEmpty();
  await expectAccessible(page);
});
