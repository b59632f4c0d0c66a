import { describe, expect, it } from "vitest";
import { api, clientToken, createDriver } from "@/test/helpers/api";
import { addVehicle, apps } from "@/test/helpers/fixtures";

// A subscription created while its vehicle is being deleted (docs/subscriptions.md): the create answers
// 200 with the subscription as it was made, or 404 when the vehicle was gone first; never 500.

const sandbox = api("sandbox");
const ROUNDS = 40;

describe("subscriptions created while their vehicle is deleted", () => {
  it(`each of ${ROUNDS} races answers 200 or 404, and the delete 200`, async () => {
    const driver = await createDriver("sandbox", apps().main.sandbox);
    const client = await clientToken(apps().main.sandbox);
    const statuses = new Map<number, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const vehicle = await addVehicle("sandbox", driver.accessToken);
      const creates = Array.from({ length: 4 }, () =>
        sandbox.post(
          `/vehicle/${vehicle.vehicleId}/eventSubscription/IGNITIONSTATUS/`,
          { postUrl: "https://hooks.partner.example/race" },
          client,
        ),
      );
      const deleted = sandbox.del(`/vehicle/${vehicle.vehicleId}`, driver.accessToken);
      const replies = await Promise.all([...creates, deleted]);
      expect(replies.at(-1)!.status, replies.at(-1)!.text).toBe(200);
      for (const reply of replies.slice(0, -1)) {
        expect([200, 404], reply.text).toContain(reply.status);
        if (reply.status === 200) expect(reply.body.subscription.vehicleId).toBe(vehicle.vehicleId);
        if (reply.status === 404) expect(reply.body.error.errorCode).toBe("NOT_FOUND");
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }
    }
    // The races did happen both ways.
    expect(statuses.get(200)).toBeGreaterThan(0);
  }, 120_000);
});
