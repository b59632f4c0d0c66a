import { expect, it } from "vitest";
import { launchService } from "../helpers/processes";
import { DEMO } from "@/db/seed";

// What a newcomer sees after `npm start` (issue 7 point 6): the demo car moving, and notifications
// from the demo app's subscriptions within a minute. A service of its own, on the embedded
// database with demo data, as `npm start` runs it.
it("the demo car drives and its subscriptions notify within a minute of start", { timeout: 180_000 }, async () => {
  const service = await launchService({ name: "demo", seedDemo: true });
  try {
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: DEMO.sandbox.clientId, client_secret: DEMO.sandbox.clientSecret });
    const tokenRes = await fetch(`${service.baseUrl}/sandbox/oauth/token`, { method: "POST", body: form });
    const { access_token: token } = (await tokenRes.json()) as { access_token: string };
    const get = async (path: string) => (await (await fetch(`${service.baseUrl}/sandbox/api${path}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as any;

    const subscriptions = (await get(`/vehicle/${DEMO.deviceSerial}/eventSubscription/`)).subscriptions as { _type: string }[];
    expect(subscriptions.map((s) => s._type).sort()).toEqual(["GEOFENCE", "IGNITIONSTATUS", "WAYPOINT"]);

    const deadline = Date.now() + 60_000;
    let types: string[] = [];
    const positions = new Set<string>();
    while (Date.now() < deadline) {
      const vehicle = (await get(`/vehicle/${DEMO.deviceSerial}`)).vehicle as { lastWaypoint: { latitude: number; longitude: number } | null };
      if (vehicle.lastWaypoint) positions.add(`${vehicle.lastWaypoint.latitude},${vehicle.lastWaypoint.longitude}`);
      types = ((await get(`/vehicle/${DEMO.deviceSerial}/eventNotification/`)).notifications as { _type: string }[]).map((n) => n._type);
      if (positions.size >= 2 && types.includes("IGNITIONSTATUS") && types.includes("WAYPOINT")) break;
      await new Promise((r) => setTimeout(r, 2000));
    }
    expect(positions.size, "the car moved").toBeGreaterThanOrEqual(2);
    expect(types).toEqual(expect.arrayContaining(["IGNITIONSTATUS", "WAYPOINT"]));
  } finally {
    await service.stop();
  }
});
