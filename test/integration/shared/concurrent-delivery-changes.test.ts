// @module-tag embedded
import { describe, expect, it } from "vitest";
import { api, clientToken, createDriver, testSql, type Reply } from "@/test/helpers/api";
import { addVehicle, apps } from "@/test/helpers/fixtures";
import { dataSet, waypoint } from "@/test/helpers/telemetry";

// Replacing a subscription's deliveries while notifications are being written for it
// (docs/delivery.md#deliveries-changed-while-notifications-are-written): every writer of
// notification_deliveries (ingest, vehicle creation under VEHICLECREATED, the test notification)
// keeps answering 200, and each notification is queued to the deliveries that existed when it
// was made. One loop swaps two of each subscription's three deliveries for new ones while the
// others post data sets (single and batched), add vehicles and send test notifications; all of
// them stop when the swapping loop has done its rounds.

const sandbox = api("sandbox");
const RECEIVER = "https://hooks.partner.example/wayline";
const ROUNDS = 40;
/** An upper bound for each of the other loops, should the swapping loop end early. */
const MAX_REQUESTS = 400;

type Failure = { what: string; status: number; text: string };

describe("deliveries replaced while notifications are written", () => {
  it("ingest, VEHICLECREATED and test notifications answer 200 throughout, and each notification keeps the delivery that stayed", async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const client = await clientToken(apps().main.sandbox);
    const vehicle = await addVehicle("sandbox", driver.accessToken);
    const deliveries = (tag: string, round: number) => [
      { type: "HTTP_POST", postUrl: `${RECEIVER}/${tag}/kept` },
      { type: "HTTP_POST", postUrl: `${RECEIVER}/${tag}/swapped/${round}/a` },
      { type: "EMAIL", recipient: `swapped-${round}@partner.example` },
    ];
    const waypointSub = await sandbox.post(
      `/vehicle/${vehicle.vehicleId}/eventSubscription/WAYPOINT/`,
      { deliveries: deliveries("waypoint", 0) },
      client,
    );
    expect(waypointSub.status, waypointSub.text).toBe(200);
    const createdSub = await sandbox.post(
      `/account/${driver.account.id}/eventSubscription/VEHICLECREATED/`,
      { deliveries: deliveries("created", 0) },
      client,
    );
    expect(createdSub.status, createdSub.text).toBe(200);
    const subs = [
      {
        path: `/vehicle/${vehicle.vehicleId}/eventSubscription/${waypointSub.body.subscription.id}`,
        tag: "waypoint",
        body: waypointSub.body.subscription,
      },
      {
        path: `/account/${driver.account.id}/eventSubscription/${createdSub.body.subscription.id}`,
        tag: "created",
        body: createdSub.body.subscription,
      },
    ].map((s) => ({ ...s, id: s.body.id as number, keptId: s.body.deliveries[0].id as number }));

    const failures: Failure[] = [];
    const check = (what: string, reply: Reply) => {
      if (reply.status !== 200) failures.push({ what, status: reply.status, text: reply.text.slice(0, 300) });
      return reply;
    };
    let swapping = true;
    const swapper = (async () => {
      try {
        for (let round = 1; round <= ROUNDS; round++) {
          for (const sub of subs) {
            const [kept, ...swapped] = deliveries(sub.tag, round);
            check(
              `replace ${sub.tag} deliveries`,
              await sandbox.post(sub.path, { deliveries: [{ id: sub.keptId, ...kept }, ...swapped] }, client),
            );
          }
        }
      } finally {
        swapping = false;
      }
    })();
    // Data sets a second apart, older than now; every one carries a waypoint, so each fires WAYPOINT.
    const start = Math.floor(Date.now() / 1000) * 1000 - 3 * 3600_000;
    let posted = 0;
    const nextSet = () =>
      dataSet(new Date(start + posted++ * 1000), "RUNNING", [waypoint(39.96 + posted / 10_000, -82.99)]);
    const poster = (async () => {
      for (let i = 0; i < MAX_REQUESTS && swapping; i++) {
        // Every third post a batch, which goes alone through the write statement.
        const body = i % 3 === 2 ? Array.from({ length: 25 }, nextSet) : nextSet();
        check("POST dataSet", await sandbox.post(`/vehicle/${vehicle.vehicleId}/dataSet/`, body, driver.accessToken));
      }
    })();
    let created = 0;
    const creator = (async () => {
      for (let i = 0; i < MAX_REQUESTS && swapping; i++) {
        if (
          check("POST vehicle", await sandbox.post("/vehicle/", { label: `Concurrent ${i}` }, driver.accessToken))
            .status === 200
        )
          created++;
      }
    })();
    let tested = 0;
    const tester = (async () => {
      for (let i = 0; i < MAX_REQUESTS && swapping; i++) {
        if (
          check(
            "GET test notification",
            await sandbox.get(`/test/vehicle/${vehicle.vehicleId}/eventSubscription/${subs[0]!.id}`, client),
          ).status === 200
        )
          tested++;
      }
    })();
    await Promise.all([swapper, poster, creator, tester]);
    expect(failures).toEqual([]);
    // The loops did overlap the swapping.
    expect(posted).toBeGreaterThan(ROUNDS);
    expect(created).toBeGreaterThan(1);
    expect(tested).toBeGreaterThan(1);

    const sql = testSql();
    const subIds = subs.map((s) => s.id);
    const counts = await sql<{ subscription_id: number; test: boolean; n: number }[]>`
      select subscription_id, test, count(*)::int as n from notifications where subscription_id = any(${subIds}::int[]) group by 1, 2 order by 1, 2`;
    // No notification lost: one per data set, per vehicle added, per test call.
    expect(counts).toEqual([
      { subscription_id: subs[0]!.id, test: false, n: posted },
      { subscription_id: subs[0]!.id, test: true, n: tested },
      { subscription_id: subs[1]!.id, test: false, n: created },
    ]);
    // Each notification is queued exactly once to the delivery that stayed throughout, and only to
    // deliveries of its own subscription, at most the two swapped ones of its time.
    const wrong = await sql`
      select n.id, n.subscription_id, array_agg(nd.delivery_id order by nd.delivery_id) as deliveries
        from notifications n
        left join notification_deliveries nd on nd.notification_id = n.id
        left join subscription_deliveries sd on sd.id = nd.delivery_id
       where n.subscription_id = any(${subIds}::int[])
       group by n.id, n.subscription_id
      having count(*) filter (where nd.delivery_id = any(${subs.map((s) => s.keptId)}::int[]) and sd.subscription_id = n.subscription_id) <> 1
          or count(*) filter (where sd.subscription_id is distinct from n.subscription_id) > 0
          or count(*) > 3`;
    expect(wrong).toEqual([]);

    // Once the swapping is over, a notification goes to exactly the three deliveries there are.
    check("POST dataSet", await sandbox.post(`/vehicle/${vehicle.vehicleId}/dataSet/`, nextSet(), driver.accessToken));
    check("POST vehicle", await sandbox.post("/vehicle/", { label: "After the swapping" }, driver.accessToken));
    check(
      "GET test notification",
      await sandbox.get(`/test/vehicle/${vehicle.vehicleId}/eventSubscription/${subs[0]!.id}`, client),
    );
    expect(failures).toEqual([]);
    for (const sub of subs) {
      const current = (await sandbox.get(sub.path, client)).body.subscription.deliveries.map(
        (d: { id: number }) => d.id,
      );
      expect(current).toHaveLength(3);
      expect(current[0]).toBe(sub.keptId);
      const latest = await sql<{ deliveries: number[] }[]>`
        select array(select delivery_id from notification_deliveries where notification_id = n.id order by delivery_id) as deliveries
          from notifications n where n.subscription_id = ${sub.id} order by n.id desc limit ${sub.tag === "waypoint" ? 2 : 1}`;
      for (const row of latest) expect(row.deliveries).toEqual([...current].sort((a: number, b: number) => a - b));
    }
  }, 180_000);
});
