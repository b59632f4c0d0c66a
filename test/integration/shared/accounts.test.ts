import { beforeAll, describe, expect, it } from "vitest";
import type { TestApp } from "@/test/integration/global-setup";
import {
  api,
  apiBase,
  clientToken,
  createDriver,
  newAccountBody,
  request,
  testSql,
  uniqueName,
  type Env,
} from "@/test/helpers/api";
import {
  addVehicle,
  apps,
  createPartnerApp,
  DATE_TIME,
  ENVS,
  expectApiError,
  expectFieldErrors,
} from "@/test/helpers/fixtures";

// Accounts over real HTTP, as docs/api.md describes.

/** The account as every later read shows it: without the creation-only accessToken. */
const withoutCode = (account: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(account).filter(([key]) => key !== "accessToken"));

const ids = (reply: { body: { account: { id: number }[] } }) => reply.body.account.map((a) => a.id);

describe.each<Env>(ENVS)("accounts in %s", (env) => {
  let clientTok: string;
  beforeAll(async () => {
    clientTok = await clientToken(apps().main[env]);
  });

  describe("POST /account/", () => {
    it("with a client token → 200, totalRecords 1, accessToken.code, no password", async () => {
      const body = newAccountBody({ phone: "+1 614 555 0100" });
      const res = await api(env).post("/account/", body, clientTok);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body.totalRecords).toBe(1);
      expect(res.body.actions).toEqual([]);
      const account = res.body.account;
      expect(Object.keys(account).sort()).toEqual(
        [
          "accessToken",
          "dateCreated",
          "email",
          "firstName",
          "id",
          "lastName",
          "phone",
          "preferredContact",
          "timeZone",
          "username",
          "zipcode",
        ].sort(),
      );
      expect(account).toMatchObject({
        id: expect.any(Number),
        firstName: body.firstName,
        lastName: body.lastName,
        username: body.username,
        email: body.email,
        zipcode: body.zipcode,
        phone: "+1 614 555 0100",
        timeZone: body.timeZone,
        preferredContact: "EMAIL",
        accessToken: { code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
      });
      expect(account.dateCreated).toMatch(DATE_TIME);
      expect(res.text).not.toContain(body.password);
    });

    it("with only the required fields → the unset optional fields are present as null", async () => {
      const username = uniqueName();
      const res = await api(env).post(
        "/account/",
        { firstName: "Ada", lastName: "Lovelace", username, password: "long-enough-1" },
        clientTok,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.account).toMatchObject({
        username,
        email: null,
        zipcode: null,
        phone: null,
        timeZone: null,
        preferredContact: null,
      });
      const read = await api(env).get(`/account/${res.body.account.id}`, clientTok);
      expect(read.body.account).toMatchObject({
        email: null,
        zipcode: null,
        phone: null,
        timeZone: null,
        preferredContact: null,
      });
      expect(read.body.account).not.toHaveProperty("accessToken");
    });

    it("with preferredContact in lower case → stored upper case", async () => {
      const res = await api(env).post("/account/", newAccountBody({ preferredContact: "sms" }), clientTok);
      expect(res.status, res.text).toBe(200);
      expect(res.body.account.preferredContact).toBe("SMS");
    });

    it("with a user token → 403 FORBIDDEN", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const username = uniqueName();
      expectApiError(
        await api(env).post("/account/", newAccountBody({ username }), driver.accessToken),
        403,
        "FORBIDDEN",
      );
      const [row] = await testSql()`select count(*)::int as n from accounts where username = ${username}`;
      expect(row!.n).toBe(0);
    });

    it("without firstName → 400 VALIDATION, firstName REQUIRED", async () => {
      const body: Record<string, unknown> = newAccountBody();
      delete body.firstName;
      expectFieldErrors(await api(env).post("/account/", body, clientTok), { firstName: "REQUIRED" });
    });

    it("with an empty body object → 400 VALIDATION naming every required field", async () => {
      expectFieldErrors(await api(env).post("/account/", {}, clientTok), {
        firstName: "REQUIRED",
        lastName: "REQUIRED",
        username: "REQUIRED",
        password: "REQUIRED",
      });
    });

    it("with a bad email → 400 VALIDATION, email INVALID", async () => {
      expectFieldErrors(await api(env).post("/account/", newAccountBody({ email: "not-an-email" }), clientTok), {
        email: "INVALID",
      });
    });

    it("with a 101-character firstName → 400 VALIDATION, firstName TOO_LONG", async () => {
      expectFieldErrors(await api(env).post("/account/", newAccountBody({ firstName: "a".repeat(101) }), clientTok), {
        firstName: "TOO_LONG",
      });
    });

    it("with an unknown preferredContact → 400 VALIDATION, preferredContact INVALID", async () => {
      expectFieldErrors(await api(env).post("/account/", newAccountBody({ preferredContact: "PIGEON" }), clientTok), {
        preferredContact: "INVALID",
      });
    });

    it("with a time zone that is not IANA → 400 VALIDATION, timeZone INVALID", async () => {
      expectFieldErrors(
        await api(env).post("/account/", newAccountBody({ timeZone: "Mars/Olympus_Mons" }), clientTok),
        { timeZone: "INVALID" },
      );
    });

    it("with firstName: 5 → 400 VALIDATION, firstName INVALID", async () => {
      expectFieldErrors(await api(env).post("/account/", newAccountBody({ firstName: 5 }), clientTok), {
        firstName: "INVALID",
      });
    });

    it("with a short password → 400 VALIDATION, password INVALID", async () => {
      expectFieldErrors(await api(env).post("/account/", newAccountBody({ password: "short" }), clientTok), {
        password: "INVALID",
      });
    });

    it("with a taken username → 409 CANNOTPERSIST, username UNIQUE", async () => {
      const body = newAccountBody();
      expect((await api(env).post("/account/", body, clientTok)).status).toBe(200);
      const again = expectApiError(
        await api(env).post("/account/", newAccountBody({ username: body.username }), clientTok),
        409,
        "CANNOTPERSIST",
      );
      expect(again.fieldErrors).toEqual([
        { fieldName: "username", errorCode: "UNIQUE", errorDisplay: expect.any(String) },
      ]);
    });

    it("with a taken username in other letter case → 409 CANNOTPERSIST, username UNIQUE", async () => {
      const body = newAccountBody({ username: uniqueName("Mixed.Case") });
      expect((await api(env).post("/account/", body, clientTok)).status).toBe(200);
      const res = await api(env).post(
        "/account/",
        newAccountBody({ username: (body.username as string).toUpperCase() }),
        clientTok,
      );
      expect(expectApiError(res, 409, "CANNOTPERSIST").fieldErrors.map((f) => [f.fieldName, f.errorCode])).toEqual([
        ["username", "UNIQUE"],
      ]);
    });

    it("with a username taken by another app's account → 409 (usernames are unique per environment)", async () => {
      const body = newAccountBody();
      expect((await api(env).post("/account/", body, clientTok)).status).toBe(200);
      const otherTok = await clientToken(apps().other[env]);
      expectApiError(
        await api(env).post("/account/", newAccountBody({ username: body.username }), otherTok),
        409,
        "CANNOTPERSIST",
      );
    });
  });

  describe("GET /account/ and /account/{id}", () => {
    it("a client token lists the accounts of its own app only; a user token only its own", async () => {
      const mine = await createDriver(env, apps().main[env]);
      const theirs = await createDriver(env, apps().other[env]);

      const listed = await api(env).get("/account/?searchLimit=500&sortOrder=desc", clientTok);
      expect(listed.status).toBe(200);
      expect(ids(listed)).toContain(mine.account.id);
      expect(ids(listed)).not.toContain(theirs.account.id);

      const otherListed = await api(env).get("/account/?searchLimit=500&sortOrder=desc", theirs.clientToken);
      expect(ids(otherListed)).toContain(theirs.account.id);
      expect(ids(otherListed)).not.toContain(mine.account.id);

      const own = await api(env).get("/account/", mine.accessToken);
      expect(own.status).toBe(200);
      expect(own.body).toEqual({
        account: [expect.objectContaining({ id: mine.account.id })],
        totalRecords: 1,
        actions: [],
      });
      expect(own.body.account[0]).not.toHaveProperty("password");
      expect(own.body.account[0]).not.toHaveProperty("accessToken");
    });

    it("GET /account/{id} → the account, totalRecords null", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const expected = withoutCode(driver.account);
      for (const token of [clientTok, driver.accessToken]) {
        const res = await api(env).get(`/account/${driver.account.id}`, token);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({ account: expected, totalRecords: null, actions: [] });
      }
    });

    it("GET /account/{id} of another account of the same app with a user token → 404", async () => {
      const a = await createDriver(env, apps().main[env]);
      const b = await createDriver(env, apps().main[env]);
      expectApiError(await api(env).get(`/account/${b.account.id}`, a.accessToken), 404, "NOT_FOUND");
    });
  });

  describe("POST /account/{id}", () => {
    it("with a partial body → only the fields sent change", async () => {
      const driver = await createDriver(env, apps().main[env], { phone: "555-0100" });
      const res = await api(env).post(
        `/account/${driver.account.id}`,
        { lastName: "Hopper", zipcode: "10001" },
        driver.accessToken,
      );
      expect(res.status, res.text).toBe(200);
      const before = withoutCode(driver.account);
      expect(res.body).toEqual({
        account: { ...before, lastName: "Hopper", zipcode: "10001" },
        totalRecords: null,
        actions: [],
      });
      expect((await api(env).get(`/account/${driver.account.id}`, clientTok)).body.account).toEqual(res.body.account);
    });

    it("echoing the whole object read before, read-only fields and nulls included → 200, nulls do not clear", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const read = await api(env).get(`/account/${driver.account.id}`, driver.accessToken);
      const echoed = {
        ...read.body.account,
        firstName: "Grace",
        email: null,
        zipcode: null,
        id: 999999,
        dateCreated: "20000101T000000+0000",
        accessToken: { code: "x" },
      };
      const res = await api(env).post(`/account/${driver.account.id}`, echoed, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.account).toEqual({ ...read.body.account, firstName: "Grace" });
    });

    it('with email "" → email cleared to null', async () => {
      const driver = await createDriver(env, apps().main[env]);
      expect(driver.account.email).not.toBeNull();
      const res = await api(env).post(`/account/${driver.account.id}`, { email: "" }, clientTok);
      expect(res.status, res.text).toBe(200);
      expect(res.body.account.email).toBeNull();
      expect((await api(env).get(`/account/${driver.account.id}`, driver.accessToken)).body.account.email).toBeNull();
    });

    it("with a new password → the password is not returned", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const res = await api(env).post(
        `/account/${driver.account.id}`,
        { password: "a-brand-new-secret" },
        driver.accessToken,
      );
      expect(res.status, res.text).toBe(200);
      expect(res.text).not.toContain("a-brand-new-secret");
      expect(res.body.account).not.toHaveProperty("password");
    });

    it("with invalid fields → 400 VALIDATION and nothing changes", async () => {
      const driver = await createDriver(env, apps().main[env]);
      expectFieldErrors(
        await api(env).post(
          `/account/${driver.account.id}`,
          { firstName: "Ok", email: "nope", timeZone: "Nowhere" },
          clientTok,
        ),
        { email: "INVALID", timeZone: "INVALID" },
      );
      expect((await api(env).get(`/account/${driver.account.id}`, clientTok)).body.account.firstName).toBe(
        driver.account.firstName,
      );
    });

    it("with a username taken by another account → 409 CANNOTPERSIST, username UNIQUE", async () => {
      const a = await createDriver(env, apps().main[env]);
      const b = await createDriver(env, apps().main[env]);
      const res = await api(env).post(
        `/account/${b.account.id}`,
        { username: (a.account.username as string).toUpperCase() },
        b.accessToken,
      );
      expect(expectApiError(res, 409, "CANNOTPERSIST").fieldErrors.map((f) => [f.fieldName, f.errorCode])).toEqual([
        ["username", "UNIQUE"],
      ]);
      expect((await api(env).get(`/account/${b.account.id}`, b.accessToken)).body.account.username).toBe(
        b.account.username,
      );
    });

    it("with its own username in other letter case → 200 (not a conflict with itself)", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const renamed = (driver.account.username as string).toUpperCase();
      const res = await api(env).post(`/account/${driver.account.id}`, { username: renamed }, driver.accessToken);
      expect(res.status, res.text).toBe(200);
      expect(res.body.account.username).toBe(renamed);
    });
  });

  describe("DELETE /account/{id}", () => {
    it("→ result OK, and the account and its vehicles are gone", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const v1 = await addVehicle(env, driver.accessToken, { label: "one" });
      const v2 = await addVehicle(env, driver.accessToken, { label: "two" });
      expect((await api(env).get(`/vehicle/${v1.vehicleId}`, clientTok)).status).toBe(200);

      const res = await api(env).del(`/account/${driver.account.id}`, clientTok);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });

      expectApiError(await api(env).get(`/account/${driver.account.id}`, clientTok), 404, "NOT_FOUND");
      for (const v of [v1, v2])
        expectApiError(await api(env).get(`/vehicle/${v.vehicleId}`, clientTok), 404, "NOT_FOUND");
      expect(await testSql()`select id from vehicles where account_id = ${driver.account.id}`).toHaveLength(0);
      // Its tokens went with it.
      expectApiError(await api(env).get("/account/", driver.accessToken), 401, "UNAUTHORIZED");
      // A second delete finds nothing.
      expectApiError(await api(env).del(`/account/${driver.account.id}`, clientTok), 404, "NOT_FOUND");
    });

    it("with the account's own user token → result OK", async () => {
      const driver = await createDriver(env, apps().main[env]);
      const res = await api(env).del(`/account/${driver.account.id}/`, driver.accessToken);
      expect(res.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });
      expectApiError(await api(env).get(`/account/${driver.account.id}`, clientTok), 404, "NOT_FOUND");
    });
  });
});

describe("GET /account/ paging (an app of its own, so the list is exact)", () => {
  let app: TestApp;
  let token: string;
  const created: number[] = [];

  beforeAll(async () => {
    app = await createPartnerApp();
    token = await clientToken(app.sandbox);
    for (let i = 0; i < 5; i++) {
      const res = await api("sandbox").post("/account/", newAccountBody({ firstName: `Pager${i}` }), token);
      expect(res.status, res.text).toBe(200);
      created.push(res.body.account.id);
    }
  });

  it("defaults: all accounts by id ascending, totalRecords the total, no paging actions", async () => {
    const res = await api("sandbox").get("/account/", token);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(created);
    expect(res.body.totalRecords).toBe(5);
    expect(res.body.actions).toEqual([]);
  });

  it("searchLimit/searchOffset → that page, totalRecords the total (not the page size), absolute next and previous links", async () => {
    const res = await api("sandbox").get("/account/?searchLimit=2&searchOffset=2", token);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(created.slice(2, 4));
    expect(res.body.totalRecords).toBe(5);
    expect(res.body.actions).toEqual([
      { name: "next", uri: expect.any(String), methods: null, inputs: null },
      { name: "previous", uri: expect.any(String), methods: null, inputs: null },
    ]);
    // Absolute, on the origin the client called.
    const next = new URL(res.body.actions[0].uri);
    const previous = new URL(res.body.actions[1].uri);
    expect(`${next.origin}${next.pathname}`).toBe(`${apiBase("sandbox")}/account/`);
    expect(Object.fromEntries(next.searchParams)).toEqual({ searchLimit: "2", searchOffset: "4" });
    expect(`${previous.origin}${previous.pathname}`).toBe(`${apiBase("sandbox")}/account/`);
    expect(Object.fromEntries(previous.searchParams)).toEqual({ searchLimit: "2", searchOffset: "0" });
  });

  it("following next and previous walks the whole list", async () => {
    const seen: number[] = [];
    let url: string | undefined = `/account/?searchLimit=2`;
    let page = await api("sandbox").get(url, token);
    for (;;) {
      expect(page.status).toBe(200);
      expect(page.body.totalRecords).toBe(5);
      seen.push(...ids(page));
      url = page.body.actions.find((a: { name: string }) => a.name === "next")?.uri;
      if (!url) break;
      page = await request("GET", url, { token });
    }
    expect(seen).toEqual(created);
    // The last page links back.
    const previous = page.body.actions.find((a: { name: string }) => a.name === "previous");
    expect(previous).toBeDefined();
    const back = await request("GET", previous.uri, { token });
    expect(back.status).toBe(200);
    expect(back.body.account.map((a: { id: number }) => a.id)).toEqual(created.slice(2, 4));
  });

  it("sortOrder=desc → by id descending", async () => {
    const res = await api("sandbox").get("/account/?sortOrder=desc&searchLimit=3", token);
    expect(ids(res)).toEqual([...created].reverse().slice(0, 3));
    expect(res.body.totalRecords).toBe(5);
  });

  it("an offset past the end → 200 with [] and the total", async () => {
    const res = await api("sandbox").get("/account/?searchOffset=10", token);
    expect(res.status).toBe(200);
    expect(res.body.account).toEqual([]);
    expect(res.body.totalRecords).toBe(5);
  });

  it("searchLimit 501 → 400 VALIDATION, searchLimit INVALID", async () => {
    expectFieldErrors(await api("sandbox").get("/account/?searchLimit=501", token), { searchLimit: "INVALID" });
  });

  it("searchLimit 500 → 200", async () => {
    expect((await api("sandbox").get("/account/?searchLimit=500", token)).status).toBe(200);
  });

  it("a bad sortOrder or a negative searchOffset → 400 VALIDATION", async () => {
    expectFieldErrors(await api("sandbox").get("/account/?sortOrder=sideways", token), { sortOrder: "INVALID" });
    expectFieldErrors(await api("sandbox").get("/account/?searchOffset=-1", token), { searchOffset: "INVALID" });
  });

  it("an app with no accounts → 200 with [] and totalRecords 0", async () => {
    const empty = await clientToken(app.production);
    const res = await api("production").get("/account/", empty);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ account: [], totalRecords: 0, actions: [] });
  });
});
