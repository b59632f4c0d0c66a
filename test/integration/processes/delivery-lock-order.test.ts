import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newAccountBody, request, type Reply } from "@/test/helpers/api";
import { Browser, hiddenFields } from "@/test/helpers/browser";
import { waitFor } from "@/test/helpers/delivery-fixture";
import { startAppWithOwnDatabase, type AppWithOwnDatabase } from "@/test/helpers/app-with-own-database";
import { loggedErrors } from "@/test/helpers/processes";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Writers of the delivery queue against a busy delivery worker (docs/delivery.md#lock-order): a
// service of its own with the worker on, receivers that answer 500 (so rows retry and the worker
// records batch after batch) and one that answers slowly, while the driver revokes the app, and while
// an account subscription's deliveries are replaced. Every one of them answers as it should, never
// 500 with a deadlock, and the worker logs no error for a delivery that was replaced under it.
// PostgreSQL only: the embedded database runs one statement at a time, so its transactions never
// wait for each other's row locks.

let own: AppWithOwnDatabase;
const base = () => own.app.baseUrl;
const api = () => `${base()}/sandbox/api`;
const basic = () =>
  `Basic ${Buffer.from(`${own.partnerApp.sandbox.clientId}:${own.partnerApp.sandbox.clientSecret}`).toString("base64")}`;
const TRIES = 6;

async function clientToken(): Promise<string> {
  const res = await request("POST", `${base()}/sandbox/oauth/token`, {
    body: "grant_type=client_credentials",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic() },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

/** A driver account made by the app, with the driver's token. */
async function driverAccount(client: string) {
  const body = newAccountBody();
  const account = await request("POST", `${api()}/account/`, { token: client, json: body });
  expect(account.status, account.text).toBe(200);
  const tokens = await request("POST", `${base()}/sandbox/oauth/token`, {
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: account.body.account.accessToken.code,
    }).toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Authorization: basic() },
  });
  expect(tokens.status, tokens.text).toBe(200);
  return {
    accountId: account.body.account.id as number,
    username: body.username as string,
    token: tokens.body.access_token as string,
  };
}

type Failure = { what: string; status: number; text: string };
const failuresOf =
  (failures: Failure[]) =>
  (what: string, reply: Reply, ok = [200]) => {
    if (!ok.includes(reply.status)) failures.push({ what, status: reply.status, text: reply.text.slice(0, 300) });
    return reply;
  };

beforeAll(async () => {
  // Retries come fast (DELIVERY_RETRY_SCALE 0.001 from the test environment), so the worker records
  // a batch of retries every few milliseconds.
  own = await startAppWithOwnDatabase("delivery-lock-order", { WORKER: "on", DELIVERY_CONCURRENCY: "4" });
  own.receiver.route("/failing", () => ({ status: 500, body: '{"error":"try again"}' }));
  own.receiver.route("/slow", () => ({ status: 500, body: "{}", delayMs: 300 }));
}, 240_000);

afterAll(async () => {
  await own?.stop();
});

describe.skipIf(inject("embedded"))("queue writers beside a busy worker", () => {
  it(`the driver's Revoke commits every time (${TRIES} tries) while the app's deliveries retry`, async () => {
    const client = await clientToken();
    for (let attempt = 1; attempt <= TRIES; attempt++) {
      const driver = await driverAccount(client);
      const vehicle = await request("POST", `${api()}/vehicle/`, { token: driver.token, json: { label: "Busy" } });
      expect(vehicle.status, vehicle.text).toBe(200);
      const vehicleId = vehicle.body.vehicle.vehicleId as number;
      const sub = await request("POST", `${api()}/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, {
        token: driver.token,
        json: {
          deliveries: [
            { type: "HTTP_POST", postUrl: `${own.receiver.url}/failing` },
            { type: "HTTP_POST", postUrl: `${own.receiver.url}/failing?second` },
            { type: "HTTP_POST", postUrl: `${own.receiver.url}/slow` },
          ],
        },
      });
      expect(sub.status, sub.text).toBe(200);

      const failures: Failure[] = [];
      const check = failuresOf(failures);
      let revoked = false;
      let posted = 0;
      const start = Date.now() - 3600_000;
      // Data sets as fast as the service takes them (about 50 a second here), until the revocation.
      const poster = (async () => {
        while (!revoked && posted < 2000) {
          const at = new Date(start + posted * 1000);
          const body =
            posted % 4 === 3
              ? Array.from({ length: 10 }, (_, i) =>
                  dataSet(new Date(at.getTime() + i), "RUNNING", [waypoint(39.96 + i / 1e4, -82.99)]),
                )
              : dataSet(at, "RUNNING", [waypoint(39.96, -82.99 + posted / 1e5)]);
          posted += 1;
          const res = await request("POST", `${api()}/vehicle/${vehicleId}/dataSet/`, {
            token: driver.token,
            json: body,
          });
          // The token stops working once the revocation commits.
          check("POST dataSet", res, revoked ? [200, 401] : [200]);
        }
      })();
      await waitFor(async () => (own.receiver.on("/failing").length > 40 * attempt ? true : undefined), {
        what: "retrying deliveries",
        timeoutMs: 30_000,
      });

      const browser = new Browser(undefined, base());
      expect((await browser.signIn("sandbox", driver.username, "correct-horse-1")).problem).toBeNull();
      const form = hiddenFields((await browser.get("/connected-apps")).text);
      const answer = await browser.post("/connected-apps/revoke", form);
      revoked = true;
      await poster;
      expect(answer.status, `try ${attempt}: ${answer.text.slice(0, 500)}`).toBe(303);
      expect((await request("GET", `${api()}/account/`, { token: driver.token })).status).toBe(401);
      expect(failures).toEqual([]);
    }
    expect(loggedErrors(own.app.output())).toEqual([]);
  }, 300_000);

  it("replacing an account subscription's deliveries while vehicles are created and tests sent: all 200", async () => {
    const client = await clientToken();
    const driver = await driverAccount(client);
    const vehicle = await request("POST", `${api()}/vehicle/`, { token: driver.token, json: { label: "Tested" } });
    expect(vehicle.status, vehicle.text).toBe(200);
    const vehicleId = vehicle.body.vehicle.vehicleId as number;
    const deliveries = (tag: string, round: number) => [
      { type: "HTTP_POST", postUrl: `${own.receiver.url}/failing?${tag}-kept` },
      { type: "HTTP_POST", postUrl: `${own.receiver.url}/failing?${tag}-${round}-a` },
      { type: "HTTP_POST", postUrl: `${own.receiver.url}/failing?${tag}-${round}-b` },
    ];
    const subs: { path: string; tag: string; id: number; keptId: number }[] = [];
    for (const [path, tag] of [
      [`/account/${driver.accountId}/eventSubscription/VEHICLECREATED/`, "created"],
      [`/vehicle/${vehicleId}/eventSubscription/WAYPOINT/`, "waypoint"],
    ] as const) {
      const made = await request("POST", `${api()}${path}`, {
        token: client,
        json: { deliveries: deliveries(tag, 0) },
      });
      expect(made.status, made.text).toBe(200);
      const sub = made.body.subscription;
      subs.push({
        path: `${path.replace(/[A-Z]+\/$/, "")}${sub.id}`,
        tag,
        id: sub.id as number,
        keptId: sub.deliveries[0].id,
      });
    }

    const failures: Failure[] = [];
    const check = failuresOf(failures);
    let swapping = true;
    const swapper = (async () => {
      try {
        for (let round = 1; round <= 30; round++) {
          for (const sub of subs) {
            const [kept, ...swapped] = deliveries(sub.tag, round);
            const res = await request("POST", `${api()}${sub.path}`, {
              token: client,
              json: { deliveries: [{ id: sub.keptId, ...kept }, ...swapped] },
            });
            check(`replace ${sub.tag} deliveries`, res);
          }
        }
      } finally {
        swapping = false;
      }
    })();
    const loop = async (what: string, send: (i: number) => Promise<Reply>) => {
      for (let i = 0; swapping && i < 1000; i++) check(what, await send(i));
    };
    const start = Date.now() - 2 * 3600_000;
    await Promise.all([
      swapper,
      loop("POST vehicle", (i) =>
        request("POST", `${api()}/vehicle/`, { token: driver.token, json: { label: `Created ${i}` } }),
      ),
      loop("GET test notification", () =>
        request("GET", `${api()}/test/vehicle/${vehicleId}/eventSubscription/${subs[1]!.id}`, { token: client }),
      ),
      loop("POST dataSet", (i) =>
        request("POST", `${api()}/vehicle/${vehicleId}/dataSet/`, {
          token: driver.token,
          json: dataSet(new Date(start + i * 1000), "RUNNING", [waypoint(39.96, -82.99 + i / 1e5)]),
        }),
      ),
    ]);
    expect(failures).toEqual([]);
    // Let the worker record what it had in hand for the deliveries that went.
    await new Promise((r) => setTimeout(r, 1500));
    expect(loggedErrors(own.app.output())).toEqual([]);
  }, 300_000);
});
