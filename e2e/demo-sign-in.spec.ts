import { expect, test } from "@playwright/test";
import { keepOnLoopback, shot } from "./support/driver";

// A newcomer's first minute: `npm start` prints "Driver site: sign in at <link> as <user> / <password>".
// Followed as printed, with no environment chosen by hand, it lands on the map with the demo car.
// The form then remembers the sandbox for the next sign-in; a browser that never signed in still
// starts on production.
function printedSignIn() {
  const line = process.env.E2E_DEMO_SIGN_IN ?? "";
  const match = /^Driver site: sign in at (\S+) as (\S+) \/ (\S+)$/.exec(line);
  if (!match) throw new Error(`npm start printed no demo sign-in line: "${line}"`);
  return { link: match[1]!, username: match[2]!, password: match[3]! };
}

test("the printed demo sign-in works on the first try and shows the demo car on the map", async ({ page, context }) => {
  await keepOnLoopback(context);
  const { link, username, password } = printedSignIn();
  expect(new URL(link).pathname).toBe("/login");

  await page.goto(link);
  await expect(page.getByRole("radio", { name: /Sandbox/ })).toBeChecked();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("form", { name: "Sign in" }).getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/map");
  await expect(page.locator(".leaflet-marker-icon [data-vehicle-id][data-latitude]").first()).toBeVisible({
    timeout: 30_000,
  });
  await shot(page, "demo-map");

  // Signed out, the sign-in page without any parameter remembers the sandbox.
  await context.clearCookies({ name: /session-token/ });
  await page.goto(new URL("/login", link).href);
  await expect(page.getByRole("radio", { name: /Sandbox/ })).toBeChecked();
});

test("a browser that never signed in starts the sign-in form on production", async ({ page, context }) => {
  await keepOnLoopback(context);
  await page.goto("/login");
  await expect(page.getByRole("radio", { name: "Production" })).toBeChecked();
  await expect(page.getByRole("radio", { name: /Sandbox/ })).not.toBeChecked();
});

test.describe("before the page's script runs", () => {
  test.use({ javaScriptEnabled: false });

  test("a submitted sign-in never puts the password in the address", async ({ page, context }) => {
    await keepOnLoopback(context);
    for (const [path, user, secret] of [
      ["/login?environment=sandbox", "Username", "Password"],
      ["/console/sign-in", "E-mail", "Password"],
    ] as const) {
      await page.goto(path);
      await page.getByLabel(user).fill("someone");
      await page.getByLabel(secret).fill("not-in-the-url-1");
      await page.getByRole("form", { name: "Sign in" }).getByRole("button", { name: "Sign in" }).click();
      await page.waitForLoadState("load");
      expect(page.url()).not.toContain("not-in-the-url-1");
      expect(page.url()).not.toContain("password");
    }
  });
});
