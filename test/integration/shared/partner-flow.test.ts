import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { api, clientToken, newAccountBody, tokenRequest, type Env } from "@/test/helpers/api";

// The partner journey, end to end, in both environments: only a client id and secret.
describe.each<Env>(["sandbox", "production"])("partner flow in %s", (env) => {
  it("client token → create account → exchange code → refresh → vehicles CRUD → delete account", async () => {
    const creds = inject("apps").main[env];
    const clientTok = await clientToken(creds);

    const created = await api(env).post("/account/", newAccountBody(), clientTok);
    expect(created.status).toBe(200);
    expect(created.body.totalRecords).toBe(1);
    const account = created.body.account;
    expect(account.accessToken.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(account).not.toHaveProperty("password");

    const exchanged = await tokenRequest(
      { grant_type: "authorization_code", code: account.accessToken.code },
      { basic: creds },
    );
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get("cache-control")).toBe("no-store");
    expect(exchanged.body).toMatchObject({ token_type: "bearer", expires_in: 86400 });

    const refreshed = await tokenRequest(
      { grant_type: "refresh_token", refresh_token: exchanged.body.refresh_token },
      { basic: creds },
    );
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(exchanged.body.refresh_token);
    const userTok = refreshed.body.access_token as string;

    const mine = await api(env).get("/account/", userTok);
    expect(mine.status).toBe(200);
    expect(mine.body.account.map((a: { id: number }) => a.id)).toEqual([account.id]);

    const vehicle = await api(env).post(
      "/vehicle/",
      { label: "Blue car", deviceId: `dev-${account.id}-${env}`, mileage: "1200" },
      userTok,
    );
    expect(vehicle.status).toBe(200);
    expect(vehicle.body.vehicle).toMatchObject({
      label: "Blue car",
      mileage: 1200,
      name: "Unidentified Vehicle",
      running: false,
      lastWaypoint: null,
    });
    const vehicleId = vehicle.body.vehicle.vehicleId as number;

    const byDevice = await api(env).get(`/vehicle/dev-${account.id}-${env}`, userTok);
    expect(byDevice.body.vehicle.vehicleId).toBe(vehicleId);

    const updated = await api(env).post(
      `/vehicle/${vehicleId}`,
      { ...byDevice.body.vehicle, label: "Red car" },
      userTok,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.vehicle).toMatchObject({
      label: "Red car",
      mileage: 1200,
      deviceId: `dev-${account.id}-${env}`,
    });

    const seenByClient = await api(env).get(`/vehicle/${vehicleId}`, clientTok);
    expect(seenByClient.status).toBe(200);

    const removed = await api(env).del(`/vehicle/${vehicleId}/`, userTok);
    expect(removed.body).toEqual({ result: "OK", totalRecords: 1, actions: [] });
    expect((await api(env).get(`/vehicle/${vehicleId}`, userTok)).status).toBe(404);

    const accountGone = await api(env).del(`/account/${account.id}`, clientTok);
    expect(accountGone.status).toBe(200);
    expect((await api(env).get(`/account/${account.id}`, clientTok)).status).toBe(404);
  });
});
