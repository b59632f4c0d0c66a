import { expect, test, type Page } from "@playwright/test";
import { shot } from "./support/driver";
import { createPartnerApp, startCallbackServer, type Credentials } from "./support/partner-app";

// The authorization page in Chromium, as a driver meets it: registering there, allowing the app,
// coming back later, denying, and revoking on the connected-apps page. The partner app is real:
// its callback is an HTTP server this spec runs, and its code is exchanged at the token endpoint.

test.describe.configure({ mode: "serial" });

let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let app: Credentials;
let appName = `E2E Fleet ${Date.now().toString(36)}`;
const driver = { username: `e2e.${Date.now().toString(36)}.${process.pid}`, password: "e2e-password-1" };
let accessToken = "";

test.beforeAll(async ({}, testInfo) => {
  callback = await startCallbackServer();
  appName = `${appName} ${testInfo.project.name}`;
  app = (await createPartnerApp(appName, callback.redirectUri)).sandbox;
  driver.username = `${driver.username}.${testInfo.project.name}`;
});

test.afterAll(async () => {
  await callback?.close();
});

const authorizePath = (state: string, path = "/OAuth/authorize") =>
  `${path}?${new URLSearchParams({ client_id: app.clientId, redirect_uri: callback.redirectUri, response_type: "code", state })}`;

async function waitForCallback(page: Page) {
  await page.waitForURL((url) => url.href.startsWith(callback.redirectUri));
  await expect(page.getByRole("heading", { name: "Partner app received the callback" })).toBeVisible();
  return callback.received.at(-1)!;
}

test("a driver registers on the authorization page, allows the app, and its callback gets a code that exchanges for working tokens", async ({
  page,
  request,
}) => {
  await page.goto(authorizePath("first-visit"));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Sign in to continue to ${appName}`);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByLabel("First name").fill("Erin");
  await page.getByLabel("Last name").fill("Endtoend");
  await page.getByLabel("Username").fill(driver.username);
  await page.getByLabel("Password").fill(driver.password);
  await page.getByLabel("E-mail").fill("erin@example.com");
  await shot(page, "register");
  await page.locator("form").getByRole("button", { name: "Create account" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Allow ${appName} to access your account?`);
  await expect(page.getByText("E2E Partners Ltd.")).toBeVisible();
  await expect(page.getByText("see and manage your vehicles")).toBeVisible();
  await shot(page, "consent");
  await page.getByRole("button", { name: "Allow" }).click();

  const back = await waitForCallback(page);
  expect(back.searchParams.get("state")).toBe("first-visit");
  const code = back.searchParams.get("code")!;
  expect(code).toBeTruthy();
  await shot(page, "callback");

  const token = await request.post("/sandbox/oauth/token", {
    headers: { Authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}` },
    form: { grant_type: "authorization_code", code, redirect_uri: callback.redirectUri },
  });
  expect(token.status()).toBe(200);
  const tokens = await token.json();
  expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 86400, refresh_token: expect.any(String) });
  accessToken = tokens.access_token;

  const me = await request.get("/sandbox/api/account/", { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).account[0].username).toBe(driver.username);
});

test("coming back later, the driver signs in and is sent straight to the app, without being asked again", async ({
  page,
}) => {
  await page.goto(authorizePath("second-visit", "/sandbox/OAuth/authorize"));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Sign in to continue to");
  await page.getByLabel("Username").fill(driver.username);
  await page.getByLabel("Password").fill(driver.password);
  await shot(page, "sign-in");
  await page.getByRole("button", { name: "Sign in", exact: true }).last().click();

  const back = await waitForCallback(page);
  expect(back.searchParams.get("state")).toBe("second-visit");
  expect(back.searchParams.get("code")).toBeTruthy();
});

test("a wrong password is shown on the form, and nothing is sent to the app", async ({ page }) => {
  const before = callback.received.length;
  await page.goto(authorizePath("wrong-password"));
  await page.getByLabel("Username").fill(driver.username);
  await page.getByLabel("Password").fill("not-my-password");
  await page.locator("form").getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText(
    "That username and password do not match a sandbox account.",
  );
  await shot(page, "wrong-password");
  expect(callback.received.length).toBe(before);
});

test("a driver who denies is sent back with error=access_denied and the state", async ({ page }) => {
  await page.goto(authorizePath("deny-me"));
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByLabel("First name").fill("Dee");
  await page.getByLabel("Last name").fill("Nied");
  await page.getByLabel("Username").fill(`${driver.username}.deny`);
  await page.getByLabel("Password").fill(driver.password);
  await page.getByLabel("E-mail").fill("dee@example.com");
  await page.locator("form").getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("button", { name: "Deny" })).toBeVisible();
  await page.getByRole("button", { name: "Deny" }).click();

  const back = await waitForCallback(page);
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("state")).toBe("deny-me");
  expect(back.searchParams.get("code")).toBeNull();
});

test("registration shows what is wrong next to each field", async ({ page }) => {
  await page.goto(authorizePath("bad-form"));
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByLabel("Username").fill(driver.username);
  await page.getByLabel("Password").fill("short");
  await page.locator("form").getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Please correct the highlighted fields.")).toBeVisible();
  await expect(page.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Must be at least 8 characters.")).toBeVisible();
  await expect(page.getByText("Needed, since you prefer to be contacted by e-mail.")).toBeVisible();
  await shot(page, "registration-errors");

  // The server's own check: the username is taken.
  await page.getByLabel("First name").fill("Dup");
  await page.getByLabel("Last name").fill("Licate");
  await page.getByLabel("Password").fill(driver.password);
  await page.getByLabel("E-mail").fill("dup@example.com");
  await page.locator("form").getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("This username is already taken.")).toBeVisible();
});

test("the connected-apps page revokes the app, and its tokens stop working at once", async ({ page, request }) => {
  await page.goto("/login?callbackUrl=%2Fconnected-apps");
  await page.getByLabel("Sandbox (test accounts)").check();
  await page.getByLabel("Username").fill(driver.username);
  await page.getByLabel("Password").fill(driver.password);
  await page.locator("form").getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { name: "Connected apps" })).toBeVisible();
  const item = page.getByRole("listitem").filter({ hasText: appName });
  await expect(item).toContainText("Allowed by you");
  await shot(page, "connected-apps");
  expect(
    (await request.get("/sandbox/api/account/", { headers: { Authorization: `Bearer ${accessToken}` } })).status(),
  ).toBe(200);

  await item.getByRole("button", { name: /^Revoke / }).click();
  await expect(page.getByRole("status")).toContainText("no longer has access to your account");
  await expect(page.getByText("No app has access to your account.")).toBeVisible();
  await shot(page, "revoked");

  const after = await request.get("/sandbox/api/account/", { headers: { Authorization: `Bearer ${accessToken}` } });
  expect(after.status()).toBe(401);
});
