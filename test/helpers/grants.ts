import { expect } from "vitest";
import type { Credentials, Env } from "./api";
import { authorizeUrl, hiddenFields, redirectParams, type Browser } from "./browser";
import { codeRequest, exchangeCode, newDriver } from "./oauth-flow";

// What a driver grants an app (docs/oauth.md#scopes), over real HTTP: the consent page's choice,
// the later one on "Connected apps", and the Revoke button there.

export type Precision = "precise" | "approximate" | "none";
export const PRECISIONS: Precision[] = ["precise", "approximate", "none"];

/** Consent with `scope`, choosing `location` (or the page's default); the token answer. */
async function consent(browser: Browser, creds: Credentials, scope: string, location?: Precision) {
  const step = await browser.authorize(authorizeUrl(codeRequest(creds, { scope })));
  if (step.kind !== "consent") throw new Error(`expected the consent form, got ${step.kind}`);
  const answer = await browser.decide(step, "allow", location ? { location } : {});
  expect(answer.status, answer.text).toBe(303);
  const token = await exchangeCode(creds, redirectParams(answer.location!).code!);
  expect(token.status, token.text).toBe(200);
  return token.body as { access_token: string; refresh_token: string; scope?: string };
}

/** A driver registered just now who granted `creds`'s app `scope` at `location`; the user token. */
export async function driverGranting(creds: Credentials, scope: string, location?: Precision, env: Env = "sandbox") {
  const driver = await newDriver(env);
  const token = await consent(driver.browser, creds, scope, location);
  return { ...driver, token: token.access_token };
}

/** The driver's later choice of precision for their (one) connected app. */
export async function choosePrecision(browser: Browser, location: Precision) {
  const page = await browser.get("/connected-apps");
  const start = page.text.indexOf('action="/connected-apps/precision"');
  expect(start, "the connected-apps page has no location form").toBeGreaterThan(-1);
  const form = hiddenFields(page.text.slice(start, page.text.indexOf("</form>", start)));
  const chosen = await browser.post("/connected-apps/precision", { ...form, location });
  expect(chosen.status, chosen.text).toBe(303);
}

/** The driver's Revoke button for their (one) connected app. */
export async function revokeOnlyApp(browser: Browser) {
  const page = await browser.get("/connected-apps");
  const start = page.text.indexOf('action="/connected-apps/revoke"');
  expect(start, "the connected-apps page has no revoke form").toBeGreaterThan(-1);
  const revoked = await browser.post(
    "/connected-apps/revoke",
    hiddenFields(page.text.slice(start, page.text.indexOf("</form>", start))),
  );
  expect(revoked.status, revoked.text).toBe(303);
}
