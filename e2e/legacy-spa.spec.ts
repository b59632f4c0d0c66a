import { expect, test } from "@playwright/test";
import { baseUrl, newDriver, shot, type Driver } from "./support/driver";
import { startLegacySpa } from "./support/legacy-spa";
import { createPartnerApp, type Credentials } from "./support/partner-app";

// A single-page app of the original service, unchanged (docs/oauth.md#authorization-page): it
// registered `http://host:port/#/authorized`, sends the driver to the implicit grant, and reads
// `access_token` from the fragment after `#/authorized?`. The app is a real page on loopback; the
// token it extracts must work against the API, from the page and from here.

test.describe.configure({ mode: "serial" });

let spa: Awaited<ReturnType<typeof startLegacySpa>>;
let app: Credentials;
let driver: Driver;

test.beforeAll(async ({}, testInfo) => {
  spa = await startLegacySpa(baseUrl());
  app = (await createPartnerApp(`Legacy SPA ${Date.now().toString(36)} ${testInfo.project.name}`, spa.redirectUri))
    .sandbox;
  spa.useClientId(app.clientId);
  driver = await newDriver("spa");
});

test.afterAll(async () => {
  await spa?.close();
});

test("the implicit grant ends at #/authorized?access_token=…: the page extracts the token and it works against GET /sandbox/api/account/", async ({
  page,
  request,
}) => {
  await page.goto(spa.url);
  await page.getByRole("link", { name: "Sign in with Wayline" }).click();
  // Until the page has loaded (and the sign-in form is hydrated), a submit would be the browser's own.
  await page.waitForURL((url) => url.pathname === "/oauth/authorize/continue", { waitUntil: "load" });
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Sign in to continue to Legacy SPA");
  await page.getByLabel("Username").fill(driver.username);
  await page.getByLabel("Password").fill(driver.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).last().click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Allow Legacy SPA");
  await page.getByRole("button", { name: "Allow" }).click();

  // The page's own call to the API, with the token it read from the fragment.
  await expect(page.getByRole("heading", { name: `Signed in as ${driver.username}` })).toBeVisible();
  await shot(page, "legacy-spa-signed-in");
  const landed = new URL(page.url());
  expect(page.url().startsWith(`${spa.redirectUri}?access_token=`)).toBe(true);
  expect(landed.search).toBe("");
  const answer = new URLSearchParams(landed.hash.slice("#/authorized?".length));
  expect(answer.get("token_type")).toBe("bearer");
  expect(answer.get("expires_in")).toBe("86400");
  expect(answer.get("refresh_token")).toBeNull();

  const token = await page.evaluate(() => sessionStorage.getItem("wayline.token"));
  expect(token).toBe(answer.get("access_token"));
  const me = await request.get("/sandbox/api/account/", { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).account[0].id).toBe(driver.accountId);

  // The fragment stays in the browser: the app's server only ever served its page.
  expect(spa.requests.every((path) => !path.includes("access_token"))).toBe(true);
});

test("a code requested for the fragment URI stops on Wayline's error page and never reaches the app", async ({
  page,
}) => {
  const served = spa.requests.length;
  const query = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: spa.redirectUri,
    response_type: "code",
    state: "code-please",
  });
  const res = await page.goto(`/sandbox/OAuth/authorize?${query}`);
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link is not valid");
  await expect(page.getByText("can only receive tokens (response_type=token)")).toBeVisible();
  await shot(page, "legacy-spa-code-refused");
  expect(new URL(page.url()).origin).toBe(baseUrl());
  expect(spa.requests.length).toBe(served);
});
