import { beforeAll, describe, expect, inject, it } from "vitest";
import { apiBase, request, tokenRequest } from "@/test/helpers/api";
import { apps, expectApiError, expectFieldErrors, expectOAuthError } from "@/test/helpers/fixtures";
import { bodyFixtures, validBodies, type BodyFixtures, type Path } from "@/test/helpers/json-bodies";

// U+0000 cannot be stored or compared by PostgreSQL, so every way it can come in is refused before
// anything reads it: 400 VALIDATION naming the field INVALID on the API
// (docs/api.md#errors), invalid_request or invalid_client at the OAuth endpoints (docs/oauth.md).
// Never a 500, and nothing written.

const NUL = "a\u0000b";

/** Every string in a valid body (member values, array elements), as paths. */
function stringPaths(value: unknown, at: Path = []): Path[] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((element, i) => stringPaths(element, [...at, i]));
  if (typeof value === "object" && value !== null)
    return Object.entries(value).flatMap(([key, member]) => stringPaths(member, [...at, key]));
  return [];
}

function withValue(body: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = value;
  return copy;
}

let f: BodyFixtures;
const sandbox = () => apiBase("sandbox");

beforeAll(async () => {
  f = await bodyFixtures();
});

describe("NUL in a JSON body → 400 VALIDATION, INVALID for that field", () => {
  it("every string of every endpoint's valid body, in turn", async () => {
    const checked: string[] = [];
    for (const op of f.operations) {
      const bodies = validBodies(op);
      expect(bodies, `${op.method} ${op.path} needs a valid body in test/helpers/json-bodies.ts`).toBeDefined();
      for (const body of bodies!) {
        for (const field of stringPaths(body)) {
          const fieldName = field.join(".");
          const res = await request(op.method.toUpperCase(), `${sandbox()}${f.fill(op.path)}`, {
            token: op.clientOnly ? f.tokens.client : f.tokens.user,
            json: withValue(body, field, NUL),
          });
          expect
            .soft(res.status, `${op.method.toUpperCase()} ${op.path} with NUL in ${fieldName}: ${res.text}`)
            .toBe(400);
          if (res.status === 400) expectFieldErrors(res, { [fieldName]: "INVALID" });
          checked.push(`${op.method.toUpperCase()} ${op.path} ${fieldName}`);
        }
      }
    }
    // The fields the issue named, as a check that the walk reaches them.
    expect(checked).toEqual(
      expect.arrayContaining([
        "POST /account/ firstName",
        "POST /vehicle/ label",
        "POST /vehicle/{vehicleId}/dataSet/ 0.datum.0.key",
        "POST /simulation/route/ name",
        "POST /account/{accountId}/eventSubscription/{eventType}/ deliveries.0.oauth2.client_secret",
      ]),
    );
  });

  it("in a member name, and in a data value, too", async () => {
    const named = await request("POST", `${sandbox()}/vehicle/`, {
      token: f.tokens.user,
      json: { label: "car", "x\u0000": 1 },
    });
    expectFieldErrors(named, { "x\\u0000": "INVALID" });
    const data = validBodies({ method: "post", path: "/vehicle/{vehicleId}/dataSet/" })![0] as {
      datum: { key: string; value: unknown }[];
    };
    const res = await request("POST", `${sandbox()}/vehicle/${f.vehicleId}/dataSet/`, {
      token: f.tokens.user,
      json: withValue(data, ["datum", 0, "value"], NUL),
    });
    expectFieldErrors(res, { "datum.0.value": "INVALID" });
  });

  it("writes nothing: the vehicle list and the vehicle stay as they were", async () => {
    const before = await request("GET", `${sandbox()}/vehicle/`, { token: f.tokens.user });
    const vehicle = await request("GET", `${sandbox()}/vehicle/${f.vehicleId}`, { token: f.tokens.user });
    expect(before.status, before.text).toBe(200);
    expectFieldErrors(await request("POST", `${sandbox()}/vehicle/`, { token: f.tokens.user, json: { label: NUL } }), {
      label: "INVALID",
    });
    expectFieldErrors(
      await request("POST", `${sandbox()}/vehicle/${f.vehicleId}`, { token: f.tokens.user, json: { label: NUL } }),
      { label: "INVALID" },
    );
    const after = await request("GET", `${sandbox()}/vehicle/`, { token: f.tokens.user });
    expect(after.body.totalRecords).toBe(before.body.totalRecords);
    expect((await request("GET", `${sandbox()}/vehicle/${f.vehicleId}`, { token: f.tokens.user })).body).toEqual(
      vehicle.body,
    );
  });
});

describe("an unpaired surrogate escape (\\ud800) in a JSON body → 400 VALIDATION, INVALID for that field (jsonb refuses it: was a 500)", () => {
  it("in a subscription delivery's OAuth2 secret (stored as jsonb), a label, and a data value", async () => {
    const subscription = validBodies({
      method: "post",
      path: "/vehicle/{vehicleId}/eventSubscription/{subscriptionId}",
    })![0];
    const update = await request(
      "POST",
      `${sandbox()}${f.fill("/vehicle/{vehicleId}/eventSubscription/{subscriptionId}")}`,
      { token: f.tokens.user, json: withValue(subscription, ["deliveries", 0, "oauth2", "client_secret"], "\ud800") },
    );
    expectFieldErrors(update, { "deliveries.0.oauth2.client_secret": "INVALID" });
    expectFieldErrors(
      await request("POST", `${sandbox()}/vehicle/`, { token: f.tokens.user, json: { label: "car \udc00" } }),
      { label: "INVALID" },
    );
    const data = validBodies({ method: "post", path: "/vehicle/{vehicleId}/dataSet/" })![0] as {
      datum: { key: string; value: unknown }[];
    };
    const res = await request("POST", `${sandbox()}/vehicle/${f.vehicleId}/dataSet/`, {
      token: f.tokens.user,
      json: withValue(data, ["datum", 0, "value"], "x\ud83d"),
    });
    expectFieldErrors(res, { "datum.0.value": "INVALID" });
  });

  it("a surrogate pair (an emoji written as two escapes) is a character, and accepted", async () => {
    const res = await request("POST", `${sandbox()}/vehicle/${f.vehicleId}`, {
      token: f.tokens.user,
      body: '{"label":"car \\ud83d\\ude97"}',
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.vehicle.label).toBe("car 🚗");
  });
});

describe("NUL in a path id or a query value → 400 VALIDATION, INVALID for that parameter", () => {
  const operations = () =>
    Object.entries(f.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({
        method,
        path,
        params: op.parameters ?? [],
        clientOnly: "403" in op.responses,
      })),
    );

  it("each path parameter of every operation, in turn", async () => {
    const checked: string[] = [];
    for (const op of operations()) {
      for (const name of op.params.filter((p) => p.in === "path").map((p) => p.name)) {
        const url = `${sandbox()}${f.fill(op.path.replace(`{${name}}`, "%00")).replace("{notificationId}", "1")}`;
        const res = await request(op.method.toUpperCase(), url, {
          token: op.clientOnly ? f.tokens.client : f.tokens.user,
          json: op.method === "post" ? {} : undefined,
        });
        expect.soft(res.status, `${op.method.toUpperCase()} ${url}: ${res.text}`).toBe(400);
        // Under eventSubscription and eventNotification a segment's meaning is its shape (a number
        // is an id, anything else a type), and U+0000 is neither: it is refused as one of the two.
        const names =
          /event(Subscription|Notification)/.test(op.path) && name !== "vehicleId" && name !== "accountId"
            ? ["eventType", "subscriptionId", "notificationId"]
            : [name];
        if (res.status === 400) {
          const error = expectApiError(res, 400, "VALIDATION");
          expect(error.fieldErrors).toEqual([
            { fieldName: expect.toBeOneOf(names), errorCode: "INVALID", errorDisplay: expect.any(String) },
          ]);
        }
        checked.push(`${op.method.toUpperCase()} ${op.path} ${name}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining(["GET /vehicle/{vehicleId} vehicleId", "DELETE /vehicle/{vehicleId} vehicleId"]),
    );
  });

  it("each query parameter of every list, in turn", async () => {
    const checked: string[] = [];
    for (const op of operations().filter((o) => o.method === "get")) {
      for (const name of op.params.filter((p) => p.in === "query").map((p) => p.name)) {
        const url = `${sandbox()}${f.fill(op.path)}?${name}=%00`;
        const res = await request("GET", url, { token: op.clientOnly ? f.tokens.client : f.tokens.user });
        expect.soft(res.status, `GET ${url}: ${res.text}`).toBe(400);
        if (res.status === 400) expectFieldErrors(res, { [name]: "INVALID" });
        checked.push(`GET ${op.path} ${name}`);
      }
    }
    expect(checked.length).toBeGreaterThan(0);
  });

  it("the issue's own examples", async () => {
    expectFieldErrors(await request("GET", `${sandbox()}/vehicle/%00`, { token: f.tokens.user }), {
      vehicleId: "INVALID",
    });
    expectFieldErrors(await request("GET", `${sandbox()}/vehicle/?key=%00`, { token: f.tokens.user }), {
      key: "INVALID",
    });
    expectFieldErrors(await request("GET", `${sandbox()}/vehicle/?searchLimit=%00`, { token: f.tokens.user }), {
      searchLimit: "INVALID",
    });
  });
});

describe("NUL at the authorization page (was a 500)", () => {
  const authorize = (query: string) => request("GET", `${inject("baseUrl")}/oauth/authorize?${query}`);

  it("in client_id or redirect_uri → 400 on our error page, never a redirect", async () => {
    for (const query of [
      "client_id=%00",
      `client_id=${apps().web.production.clientId}&redirect_uri=https%3A%2F%2Fpartner.example%2Fcallback%00`,
    ]) {
      const res = await authorize(query);
      expect(res.status, `${query}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.text).toContain("NUL character");
    }
  });

  it("in any other parameter → back to the app with invalid_request", async () => {
    const res = await authorize(
      `client_id=${apps().web.production.clientId}&redirect_uri=${encodeURIComponent("https://partner.example/callback")}&response_type=code&state=abc&code_challenge=a%00b`,
    );
    expect(res.status).toBe(302);
    const location = new URL(res.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("https://partner.example/callback");
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("abc");
  });
});

describe("NUL in an OAuth form field → invalid_request, or invalid_client when it is the client's credentials", () => {
  const revokeUrl = () => `${inject("baseUrl")}/oauth/revoke`;
  const revoke = (form: Record<string, string>) =>
    request("POST", revokeUrl(), {
      body: new URLSearchParams(form).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
  const creds = () => apps().main.sandbox;
  const grant = () => ({
    grant_type: "refresh_token",
    refresh_token: f.driver.refreshToken,
    client_id: creds().clientId,
    client_secret: creds().clientSecret,
  });

  it.each([
    ["client_id", 401, "invalid_client"],
    ["client_secret", 401, "invalid_client"],
    ["grant_type", 400, "invalid_request"],
    ["code", 400, "invalid_request"],
    ["refresh_token", 400, "invalid_request"],
  ] as const)("token endpoint, %s → %i %s", async (field, status, error) => {
    expectOAuthError(await tokenRequest({ ...grant(), [field]: NUL }), status, error);
  });

  it("token endpoint, NUL in HTTP Basic credentials → 401 invalid_client", async () => {
    expectOAuthError(
      await tokenRequest({ grant_type: "client_credentials" }, { basic: { clientId: NUL, clientSecret: "x" } }),
      401,
      "invalid_client",
    );
  });

  it.each([
    ["client_id", 401, "invalid_client"],
    ["client_secret", 401, "invalid_client"],
    ["token", 400, "invalid_request"],
  ] as const)("revocation endpoint, %s → %i %s", async (field, status, error) => {
    expectOAuthError(
      await revoke({ token: "t", client_id: creds().clientId, client_secret: creds().clientSecret, [field]: NUL }),
      status,
      error,
    );
  });

  it("the refused requests changed nothing: the refresh token still works", async () => {
    const res = await tokenRequest(grant());
    expect(res.status, res.text).toBe(200);
  });
});
