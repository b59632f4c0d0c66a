import { expect, test, type Page } from "@playwright/test";
import { expectAccessible } from "./support/accessible";
import { hydrated, keepOnLoopback } from "./support/driver";

// A console that speaks human, in Chromium at desktop and phone width: the app
// just created is listed while its one-time secret is on screen; the simulator is a tab of the app;
// "Watch" on a run selects that run's vehicle; times show in the partner's time zone with a relative
// form, and the exact wire DateTime on hover and copy.

test.beforeEach(async ({ context }) => keepOnLoopback(context));

async function signUpWithApp(page: Page, who: string, appName: string) {
  await page.goto("/console/sign-up");
  await page.getByLabel("Your name").fill("Hugo Partner");
  await page
    .getByLabel("E-mail")
    .fill(`${who}.${Date.now().toString(36)}.${process.pid}.${test.info().project.name}@partner.example`);
  await page.getByLabel("Password").fill("e2e-partner-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("No apps yet")).toBeVisible();
  await page.getByLabel("App name").fill(appName);
  // Hydrated first: posted without JavaScript, the form gets a plain page and no one-time reveal.
  await hydrated(page.getByRole("button", { name: "Create app" }));
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

test("the simulator is a tab of the app, and Watch selects the run's vehicle", async ({ page }) => {
  test.setTimeout(120_000);
  await signUpWithApp(page, "watch", "Watch Fleet");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Watch Fleet" })).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "App sections" });

  await tabs.getByRole("link", { name: "Connected accounts", exact: true }).click();
  await page.getByRole("button", { name: "Create test account" }).click();
  await expect(page.getByText("Test account created")).toBeVisible();
  await page.getByRole("button", { name: "Done" }).click();
  const vehicles: string[] = [];
  for (let i = 0; i < 2; i++) {
    await page.getByRole("button", { name: "Add test vehicle" }).first().click();
    await expect(page.getByText("Test vehicle created.")).toBeVisible();
    vehicles.push((await page.getByTestId("value-vehicleId").textContent())!.trim());
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByText("Test vehicle created.")).toHaveCount(0);
  }

  await tabs.getByRole("link", { name: "Simulator", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sandbox simulator" })).toBeVisible({ timeout: 30_000 });
  await expect(tabs.getByRole("link", { name: "Simulator", exact: true })).toHaveAttribute("aria-current", "page");
  const vehicle = page.getByLabel("Sandbox vehicle");
  await vehicle.selectOption(vehicles[0]!);
  await page.getByRole("radio", { name: "Template" }).check();
  await page.getByRole("combobox", { name: "Template" }).selectOption("columbus-south-to-north");
  await page.getByRole("radio", { name: /Instant backfill/ }).check();
  await page.getByRole("button", { name: "Start simulation" }).click();
  const row = page.locator("[data-testid^=run-]").first();
  await expect(row).toBeVisible({ timeout: 60_000 });

  // Another vehicle chosen in the form; Watch on the run brings its own vehicle back.
  await vehicle.selectOption(vehicles[1]!);
  await row.getByRole("button", { name: "Watch" }).click();
  await expect(vehicle).toHaveValue(vehicles[0]!);
  await expectAccessible(page);
});

test.describe("in New York", () => {
  test.use({ timezoneId: "America/New_York", locale: "en-US" });

  test("times show in the partner's time zone with how long ago, and the wire value on hover and copy", async ({
    page,
    baseURL,
  }) => {
    await signUpWithApp(page, "tz", "Time Fleet");
    await page.getByRole("button", { name: "Done" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Time Fleet" })).toBeVisible();
    const inboxUrl = (await page.getByTestId("value-Inbox URL").textContent())!.trim();
    await page
      .getByRole("navigation", { name: "App sections" })
      .getByRole("link", { name: "Sandbox inbox", exact: true })
      .click();
    await expect(page.getByTestId("inbox-status")).toContainText("New requests appear here as they arrive.");
    expect(
      (await fetch(inboxUrl.replace(/^http:\/\/localhost:\d+/, baseURL!), { method: "POST", body: "what time is it" }))
        .status,
    ).toBe(200);

    const time = page.getByRole("list", { name: "Requests received" }).locator("time").first();
    await expect(time).toBeVisible();
    const iso = (await time.getAttribute("datetime"))!;
    const wire = (await time.getAttribute("data-wire"))!;
    // The wire value is the same moment, as the API writes it.
    expect(wire).toBe(
      `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}+0000`,
    );
    const local = new Intl.DateTimeFormat("en-US", {
      timeZone: "America/New_York",
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "short",
    }).format(new Date(iso));
    await expect(time).toHaveText(
      new RegExp(`^${local.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} · (just now|\\d+ (sec|min)\\. ago)$`),
    );
    await expect(time).toHaveAttribute("title", `${wire} (exact, as the API sends it)`);
    // Copying the shown time puts the wire value on the clipboard.
    const copied = await time.evaluate((el) => {
      const data = new DataTransfer();
      el.dispatchEvent(new ClipboardEvent("copy", { clipboardData: data, bubbles: true, cancelable: true }));
      return data.getData("text/plain");
    });
    expect(copied).toBe(wire);
    await expectAccessible(page);
  });
});
