import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, testSql, uniqueName } from "@/test/helpers/api";
import { authorizeUrl, Browser, visibleText } from "@/test/helpers/browser";
import { apiStatus, authorizeCode, codeRequest, exchangeCode, newDriver, webApp } from "@/test/helpers/oauth-flow";

// Driver sessions (next-auth over Wayline accounts): sign-in per environment, registration with
// field errors, sign-out, and the slowdown of repeated failures per account and per address.

describe("sign-in", () => {
  it("the right password → a session for that account and environment, in an httpOnly SameSite=Lax cookie", async () => {
    const { username, password } = await newDriver();
    const browser = new Browser();
    const res = await browser.signIn("sandbox", username, password);
    expect(res.status).toBe(200);
    expect(res.problem).toBeNull();
    const session = await browser.session();
    expect(session.driver).toMatchObject({ environment: "sandbox", username, name: "Reg Istered" });
  });

  it("usernames are matched regardless of case", async () => {
    const { username, password } = await newDriver();
    expect((await new Browser().signIn("sandbox", username.toUpperCase(), password)).status).toBe(200);
  });

  it("a wrong password and an unknown username get the same answer, and no session", async () => {
    const { username } = await newDriver();
    const wrong = new Browser();
    const a = await wrong.signIn("sandbox", username, "not-the-password");
    const b = await new Browser().signIn("sandbox", uniqueName("ghost"), "not-the-password");
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(a.problem).toEqual({ kind: "invalid_credentials", waitSeconds: 0 });
    expect(b.problem).toEqual(a.problem);
    expect(wrong.signedIn).toBe(false);
  });

  it("the session cookie is httpOnly and SameSite=Lax", async () => {
    const { username, password } = await newDriver();
    const browser = new Browser();
    const csrfToken = await browser.csrfToken();
    const res = await browser.request("POST", "/api/auth/callback/password", {
      form: { environment: "sandbox", username, password, csrfToken, callbackUrl: "/", json: "true" },
    });
    const cookie = res.headers.getSetCookie().find((c) => c.includes("session-token"))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it("a form post (no JSON) is answered with 303", async () => {
    const { username, password } = await newDriver();
    const browser = new Browser();
    const res = await browser.post("/api/auth/callback/password", {
      environment: "sandbox",
      username,
      password,
      csrfToken: await browser.csrfToken(),
      callbackUrl: "/connected-apps",
    });
    expect(res.status).toBe(303);
    expect(res.location).toMatch(/\/connected-apps$/);
    expect(browser.signedIn).toBe(true);
  });

  it("sign-out ends the session", async () => {
    const { browser } = await newDriver();
    expect(browser.signedIn).toBe(true);
    const res = await browser.post("/api/auth/signout", {
      csrfToken: await browser.csrfToken(),
      callbackUrl: "/",
      json: "true",
    });
    expect(res.status).toBe(200);
    expect(browser.signedIn).toBe(false);
    expect(await browser.session()).toEqual({});
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp())))).kind).toBe("sign-in");
  });

  it("a deleted account's session cookie signs nobody in", async () => {
    const { browser } = await newDriver();
    const { code } = await authorizeCode(browser, codeRequest(webApp()));
    const token = (await exchangeCode(webApp(), code)).body.access_token as string;
    const me = await api("sandbox").get("/account/", token);
    expect((await api("sandbox").del(`/account/${me.body.account[0].id}`, token)).status).toBe(200);
    expect(await apiStatus(token)).toBe(401);
    expect(browser.signedIn).toBe(true);
    expect((await browser.authorize(authorizeUrl(codeRequest(webApp())))).kind).toBe("sign-in");
    const page = await browser.get("/connected-apps");
    expect(page.location).toContain("/login");
  });

  it("the session secret is generated on first start and kept in DATA_DIR, readable by its owner only", async () => {
    const file = path.join(inject("dataDir"), "auth-secret");
    expect(fs.readFileSync(file, "utf8").trim().length).toBeGreaterThanOrEqual(32);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
  });
});

describe("registration", () => {
  const register = (fields: Record<string, string>) =>
    new Browser().credentials("registration", { environment: "sandbox", ...fields });
  const fieldsOf = (problem: any) =>
    Object.fromEntries(
      (problem?.fieldErrors ?? []).map((f: { fieldName: string; message: string }) => [f.fieldName, f.message]),
    );

  it("creates the account and signs the driver in", async () => {
    const browser = new Browser();
    const { username } = await browser.register("sandbox", {
      zipcode: "43215",
      phone: "+1 614 555 0100",
      preferredContact: "SMS",
    });
    expect((await browser.session()).driver).toMatchObject({ username, environment: "sandbox" });
  });

  it("without the required fields → 401 with each one named", async () => {
    const res = await register({});
    expect(res.status).toBe(401);
    expect(res.problem.kind).toBe("fields");
    expect(fieldsOf(res.problem)).toMatchObject({
      firstName: "Required.",
      lastName: "Required.",
      username: "Required.",
      password: "Required.",
    });
  });

  it.each([
    ["email", { email: "not-an-email" }, "Must be an e-mail address."],
    ["password", { password: "short" }, "Must be at least 8 characters."],
    ["username", { username: "a b" }, "May contain letters, digits and . _ @ + - only."],
    ["timeZone", { timeZone: "Mars/Olympus" }, "Must be an IANA time zone such as America/New_York."],
    ["preferredContact", { preferredContact: "PIGEON" }, "Must be one of EMAIL, PHONE, SMS, MAIL."],
  ])("an invalid %s → its own field error", async (field, override, message) => {
    const res = await register({
      firstName: "A",
      lastName: "B",
      username: uniqueName("f"),
      password: "long-enough-1",
      ...override,
    });
    expect(res.problem.kind).toBe("fields");
    expect(fieldsOf(res.problem)[field]).toBe(message);
  });

  it("preferring e-mail without an e-mail address → a field error on email", async () => {
    const res = await register({
      firstName: "A",
      lastName: "B",
      username: uniqueName("f"),
      password: "long-enough-1",
      preferredContact: "EMAIL",
    });
    expect(fieldsOf(res.problem)).toEqual({ email: "Needed, since you prefer to be contacted by e-mail." });
  });

  it("a username taken in the environment (in any case) → a field error; the same name is free in the other environment", async () => {
    const { username } = await newDriver("sandbox");
    const res = await register({
      firstName: "A",
      lastName: "B",
      username: username.toUpperCase(),
      password: "long-enough-1",
    });
    expect(fieldsOf(res.problem)).toEqual({ username: "This username is already taken." });
    await new Browser().register("production", { username });
  });
});

describe("repeated failed sign-ins slow down", () => {
  it("per account: the 5th failure starts a 30 s wait; then even the right password, from another address, is refused", async () => {
    const { username, password } = await newDriver();
    const attacker = new Browser();
    for (let i = 1; i <= 4; i++)
      expect((await attacker.signIn("sandbox", username, `guess-${i}`)).problem).toEqual({
        kind: "invalid_credentials",
        waitSeconds: 0,
      });
    expect((await attacker.signIn("sandbox", username, "guess-5")).problem).toEqual({
      kind: "invalid_credentials",
      waitSeconds: 30,
    });

    const owner = new Browser();
    const refused = await owner.signIn("sandbox", username, password);
    expect(refused.status).toBe(401);
    expect(refused.problem).toEqual({ kind: "throttled", retryAfterSeconds: expect.any(Number) });
    expect(refused.problem.retryAfterSeconds).toBeGreaterThan(25);
    expect(owner.signedIn).toBe(false);

    // The state is in the database, where every process serving sign-ins sees it.
    const [row] =
      await testSql()`select failures, blocked_until > now() as blocked from sign_in_throttles where key = ${`account:sandbox:${username.toLowerCase()}`}`;
    expect(row).toEqual({ failures: 5, blocked: true });
  });

  it("per account: when the wait is over, each further failure doubles it", async () => {
    const { username } = await newDriver();
    const browser = new Browser();
    for (let i = 1; i <= 5; i++) await browser.signIn("sandbox", username, `guess-${i}`);
    await testSql()`update sign_in_throttles set blocked_until = now() - interval '1 second' where key = ${`account:sandbox:${username.toLowerCase()}`}`;
    expect((await browser.signIn("sandbox", username, "guess-6")).problem).toEqual({
      kind: "invalid_credentials",
      waitSeconds: 60,
    });
  });

  it("per account: a successful sign-in clears the count", async () => {
    const { username, password } = await newDriver();
    const browser = new Browser();
    for (let i = 1; i <= 4; i++) await browser.signIn("sandbox", username, `typo-${i}`);
    expect((await browser.signIn("sandbox", username, password)).status).toBe(200);
    for (let i = 1; i <= 4; i++)
      expect((await browser.signIn("sandbox", username, `typo-again-${i}`)).problem.waitSeconds).toBe(0);
  });

  it("per account and environment: failures in the sandbox do not slow the same username down in production", async () => {
    const username = uniqueName("twin");
    await new Browser().register("sandbox", { username });
    const prod = await new Browser().register("production", { username });
    const browser = new Browser();
    for (let i = 1; i <= 6; i++) await browser.signIn("sandbox", username, `guess-${i}`);
    expect((await new Browser().signIn("production", username, prod.password)).status).toBe(200);
  });

  it("per address: after 20 failures (any usernames) the address waits, other addresses do not", async () => {
    const guesser = new Browser();
    for (let i = 1; i <= 19; i++)
      expect((await guesser.signIn("sandbox", uniqueName("nobody"), "guess")).problem.waitSeconds).toBe(0);
    expect((await guesser.signIn("sandbox", uniqueName("nobody"), "guess")).problem).toEqual({
      kind: "invalid_credentials",
      waitSeconds: 30,
    });

    const { username, password } = await newDriver();
    const sameAddress = new Browser(guesser.address);
    expect((await sameAddress.signIn("sandbox", username, password)).problem).toMatchObject({ kind: "throttled" });
    expect((await new Browser().signIn("sandbox", username, password)).status).toBe(200);
  });
});

describe("the driver site's sign-in page", () => {
  it("/login offers both environments and both forms", async () => {
    const page = await new Browser().get("/login");
    expect(page.status).toBe(200);
    const text = visibleText(page.text);
    expect(text).toContain("Sign in to Wayline");
    expect(text).toContain("Production");
    expect(text).toContain("Sandbox (test accounts)");
    expect(text).toContain("Create account");
  });

  it.each(["https://evil.example/x", "//evil.example/x", "/\\evil.example/x"])(
    "/login?callbackUrl=%s never sends anyone off the site",
    async (target) => {
      const page = await new Browser().get(`/login?callbackUrl=${encodeURIComponent(target)}`);
      expect(page.status).toBe(200);
      // Where the sign-in form goes on success (a prop of the form, in the page's RSC payload).
      const continueTo = /continueTo\\?":\\?"([^"\\]*)/.exec(page.text)?.[1];
      expect(continueTo).toBe("/map");
    },
  );
});
