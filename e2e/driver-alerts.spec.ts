import { expect, test } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { keepOnLoopback, newDriver, signIn } from "./support/driver";

// The driver's alerts in Chromium (docs/alerts.md): the settings page saves a kind's channel and
// threshold and the quiet hours, and they are there after a reload; "Send a test e-mail" queues a
// test alert, which the alerts page lists marked test with its e-mail channel. (This run's main
// service has no delivery worker, so the channel stays "sending"; the integration tests follow
// alert e-mails to an SMTP server.)

test.beforeEach(async ({ context }) => keepOnLoopback(context));

test("settings saved and read back; a test e-mail is listed on the alerts page", async ({ page }) => {
  const driver = await newDriver("alerts");
  await signIn(page, driver, "/account/alerts");
  await expect(page.getByRole("heading", { name: "Alert settings", level: 1 })).toBeVisible();
  await expectAccessible(page);

  const speeding = page.getByRole("group", { name: "Speed above a limit" });
  await speeding.getByRole("checkbox", { name: "E-mail" }).check();
  await speeding.getByRole("spinbutton", { name: "Speed limit" }).fill("110");
  await speeding.getByRole("combobox", { name: "Speed unit" }).selectOption("km/h");
  const quiet = page.getByRole("group", { name: "Quiet hours" });
  await quiet.getByRole("checkbox", { name: "Keep quiet hours" }).check();
  await quiet.getByLabel("From").fill("23:00");
  await quiet.getByLabel("To").fill("06:30");
  await page.getByRole("button", { name: "Save alert settings" }).click();
  await expect(page.getByRole("status")).toHaveText("Your alert settings are saved.");

  await page.reload();
  await expect(speeding.getByRole("checkbox", { name: "E-mail" })).toBeChecked();
  await expect(speeding.getByRole("spinbutton", { name: "Speed limit" })).toHaveValue("110");
  await expect(speeding.getByRole("combobox", { name: "Speed unit" })).toHaveValue("km/h");
  await expect(quiet.getByLabel("From")).toHaveValue("23:00");
  await expect(quiet.getByLabel("To")).toHaveValue("06:30");

  // A limit out of range is shown on its field.
  await speeding.getByRole("spinbutton", { name: "Speed limit" }).fill("1000");
  await page.getByRole("button", { name: "Save alert settings" }).click();
  await expect(speeding.getByText("Must be between 5 and 300.")).toBeVisible();

  await page.getByRole("button", { name: "Send a test e-mail" }).click();
  await expect(page.getByText("A test alert is on its way.")).toBeVisible();
  await page.getByRole("link", { name: "Alerts", exact: true }).click();
  await expect(page).toHaveURL(/\/alerts$/);
  const row = page.getByTestId("alert-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Test alert (e-mail)");
  await expect(row).toContainText("test");
  await expect(row).toContainText(/E-mail: (sending|delivered)/);
  await expectAccessible(page);
});
