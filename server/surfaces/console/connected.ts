import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { db } from "@/db/client";
import { accountGrants, type Environment } from "@/db/schema";
import { createAccount, listVisibleAccounts } from "@/server/accounts/service";
import { createAccountBody } from "@/common/accounts/schemas";
import { createVehicle, listVisibleVehicles } from "@/server/vehicles/service";
import { createVehicleBody } from "@/server/vehicles/schemas";
import { ApiError } from "@/common/http/errors";
import { consolePrincipal } from "./principal";

const PAGE = { limit: 500, offset: 0 };

// The accounts the app created or that authorized it (what its client-credentials token sees),
// each with its vehicles and how the app got access.
export async function connectedAccounts(partnerUserId: number, appId: number, environment: Environment) {
  const principal = await consolePrincipal(partnerUserId, appId, environment);
  const [{ items: accounts, total }, { items: vehicles }] = await Promise.all([
    listVisibleAccounts(principal, PAGE, "desc"),
    listVisibleVehicles(principal, { limit: 500, offset: 0 }),
  ]);
  const ids = accounts.map((a) => a.id);
  const grants = ids.length
    ? await db()
        .select({
          accountId: accountGrants.accountId,
          source: accountGrants.source,
          grantedAt: accountGrants.grantedAt,
        })
        .from(accountGrants)
        .where(and(eq(accountGrants.appId, appId), inArray(accountGrants.accountId, ids)))
    : [];
  const source = new Map(grants.map((g) => [g.accountId, g]));
  return {
    total,
    accounts: accounts.map((a) => ({
      ...a,
      grant: source.get(a.id) ?? null,
      vehicles: vehicles.filter((v) => v.accountId === a.id),
    })),
  };
}

/** Sandbox only: a driver account made by the app, as POST /account/ would; its password is returned once to show. */
export async function createTestAccount(partnerUserId: number, appId: number) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  const suffix = randomBytes(4).toString("hex");
  const password = randomBytes(9).toString("base64url");
  const input = createAccountBody.parse({
    firstName: "Test",
    lastName: `Driver ${suffix}`,
    username: `test.${suffix}`,
    password,
    email: `test.${suffix}@example.com`,
    timeZone: "UTC",
    preferredContact: "EMAIL",
  });
  const account = await createAccount(principal, input);
  return { accountId: account.id, username: input.username, password };
}

/** Sandbox only: a vehicle with a device serial on one of the app's accounts. */
export async function createTestVehicle(partnerUserId: number, appId: number, accountId: number) {
  const principal = await consolePrincipal(partnerUserId, appId, "sandbox");
  const serial = `SIM-${randomBytes(4).toString("hex").toUpperCase()}`;
  const vehicle = await createVehicle(
    principal,
    createVehicleBody.parse({ accountId, label: `Test car ${serial.slice(4)}`, deviceId: serial }),
  );
  if (!vehicle) throw new ApiError("CANNOTPERSIST", "The vehicle could not be created.");
  return { vehicleId: vehicle.vehicleId, deviceId: serial };
}
