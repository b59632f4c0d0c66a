import { beforeAll, describe, expect, it } from "vitest";
import { authorizeUrl, redirectParams, visibleText, type Page } from "@/test/helpers/browser";
import { createPartnerApp } from "@/test/helpers/fixtures";
import { CALLBACK, codeRequest, newDriver, pkcePair, webApp } from "@/test/helpers/oauth-flow";
import type { TestApp } from "@/test/integration/global-setup";

// The consent form decides one authorization request: the one the page showed
// (docs/oauth.md#authorization-page). Its CSRF token is signed over that request's client,
// redirect URI, response type and mode, scope, state, PKCE challenge and method, prompt and login
// hint, so a form posted with any of them changed ends on our error page: no redirect, no code,
// no consent recorded. (App A's form posted with app B's client_id
// used to answer 303 with a code that B could exchange for the driver's token.)

let appB: TestApp;
beforeAll(async () => {
  // Another app that registered the same redirect URI as the web app, as any app may.
  appB = await createPartnerApp();
});

/** A signed-in driver on the web app's consent page, for a request with every field set. */
async function consentFor() {
  const { browser } = await newDriver();
  const params = codeRequest(webApp(), {
    scope: "vehicles",
    code_challenge: pkcePair().challenge,
    code_challenge_method: "S256",
  });
  const step = await browser.authorize(authorizeUrl(params));
  if (step.kind !== "consent") throw new Error(`expected the consent page, got ${step.kind}`);
  return { browser, step, params };
}

function expectRefusedPage(answer: Page) {
  expect(answer.status, answer.text.slice(0, 300)).toBe(403);
  expect(answer.location).toBeNull();
  expect(answer.headers.get("content-type")).toMatch(/^text\/html/);
  expect(visibleText(answer.text)).toContain("no longer matches");
}

describe("the consent form is bound to the request it showed", () => {
  it("posted unchanged → 303 to the app with a code that exchanges (the control)", async () => {
    const { browser, step, params } = await consentFor();
    expect(step.form).toMatchObject({ client_id: webApp().clientId, scope: "vehicles", code_challenge_method: "S256" });
    const answer = await browser.decide(step, "allow");
    expect(answer.status).toBe(303);
    expect(redirectParams(answer.location!)).toEqual({ code: expect.any(String), state: params.state });
  });

  it("with app B's client_id on app A's form → 403 error page, no code, and B has no consent", async () => {
    const { browser, step } = await consentFor();
    const answer = await browser.decide(step, "allow", { client_id: appB.sandbox.clientId });
    expectRefusedPage(answer);
    // Had a code been issued it would be in Location; B's own request still asks the driver.
    const forB = await browser.authorize(authorizeUrl(codeRequest(appB.sandbox)));
    expect(forB.kind).toBe("consent");
    // And A's request, posted as shown, still works: the refusal spent nothing.
    const allowed = await browser.decide(step, "allow");
    expect(allowed.status).toBe(303);
    expect(allowed.location!.startsWith(`${CALLBACK}?`)).toBe(true);
    expect(redirectParams(allowed.location!).code).toBeTruthy();
  });

  const swaps: [string, Record<string, string>][] = [
    ["client_id (another app with the same redirect URI)", { client_id: "<B>" }],
    ["redirect_uri (another URI the app registered)", { redirect_uri: "https://partner.example/cb?tenant=acme" }],
    ["scope", { scope: "vehicles accounts" }],
    ["scope left out", { scope: "" }],
    ["state", { state: "someone-elses-state" }],
    ["state left out", { state: "" }],
    ["code_challenge (another valid challenge)", { code_challenge: "<other challenge>" }],
    ["code_challenge and its method left out (PKCE dropped)", { code_challenge: "", code_challenge_method: "" }],
    ["code_challenge_method", { code_challenge_method: "plain" }],
    ["response_type (code → token)", { response_type: "token", code_challenge: "", code_challenge_method: "" }],
    ["response_mode (query → fragment)", { response_mode: "fragment" }],
    ["prompt added", { prompt: "consent" }],
    ["login_hint added", { login_hint: "someone" }],
  ];
  it.each(swaps)("with %s changed → 403 error page, no redirect, no code (allow and deny)", async (_, tamper) => {
    const { browser, step } = await consentFor();
    const fields = Object.fromEntries(
      Object.entries(tamper).map(([name, value]) => [
        name,
        value === "<B>" ? appB.sandbox.clientId : value === "<other challenge>" ? pkcePair().challenge : value,
      ]),
    );
    expectRefusedPage(await browser.decide(step, "allow", fields));
    expectRefusedPage(await browser.decide(step, "deny", fields));
  });

  it("the token of one request's form does not carry over to another request of the same driver", async () => {
    const { browser, step } = await consentFor();
    const second = await browser.authorize(authorizeUrl(codeRequest(webApp(), { state: "second" })));
    if (second.kind !== "consent") throw new Error(`expected the consent page, got ${second.kind}`);
    expect(second.form.csrf_token).not.toBe(step.form.csrf_token);
    expectRefusedPage(await browser.decide(second, "allow", { csrf_token: step.form.csrf_token! }));
  });
});
