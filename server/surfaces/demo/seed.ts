import { and, eq, isNull } from "drizzle-orm";
import { db } from "@/db/client";
import { findCredentialByClientId } from "@/server/oauth/queries";
import { insertAccount, insertGrant } from "@/server/accounts/queries";
import { createApp } from "@/server/apps/service";
import { accounts, partnerAppOwners, vehicles } from "@/db/schema";
import { ensurePartnerUser } from "@/server/surfaces/console/partner-users";
import { hashPassword } from "@/server/platform/security/passwords";
import { insertDevice, insertVehicle } from "@/server/vehicles/queries";
import { decodeVin } from "@/server/vehicles/vin";
import { ensureDemoRun, ensureDemoTrip } from "@/server/simulator/demo";
import { logger } from "@/server/platform/log";
import { countSubscriptionsOfApp } from "@/server/subscriptions/queries";
import { createSubscription } from "@/server/subscriptions/service";

// Demo data for a newcomer's first start on the embedded database. Known credentials, so it is
// only ever seeded where env().seedDemo allows (the embedded database by default).
export const DEMO = {
  app: {
    name: "Wayline Demo",
    ownerName: "Wayline",
    redirectUris: ["http://localhost:3000/demo/callback", "https://example.com/wayline/callback"],
  },
  sandbox: { clientId: "wl_sbx_demo", clientSecret: "wls_demo_sandbox_secret" },
  driver: { username: "demo.driver", password: "demo-password" },
  deviceSerial: "DEMO-DEVICE-1",
  // Real-looking VINs (valid check digits; the serials, positions 12–17, are made up) that the
  // offline decoder reads as a 2019 Honda Civic and a 2020 Ford Transit.
  vehicles: {
    car: { label: "Family car", vin: "2HGFC2F51KH512348", mileage: 48210 },
    van: { label: "Work van", vin: "1FTBR1Y8XLKA47219", mileage: 120344 },
  },
  partner: { email: "demo.partner@wayline.example", name: "Dana Partner", password: "demo-password" },
} as const;

export async function seedDemo(): Promise<{ created: boolean }> {
  const existing = await findCredentialByClientId(db(), { clientId: DEMO.sandbox.clientId });
  if (existing) {
    // Data dirs seeded before: the demo vehicles gain their VINs and the van its finished trip.
    await demoVins();
    await demoDrive(existing);
    await demoTrip(existing);
    await demoSubscriptions(existing);
    // Data dirs seeded before the partner console: give the demo app its console owner.
    await seedDemoPartner(existing.appId);
    return { created: false };
  }

  const app = await createApp({
    ...DEMO.app,
    redirectUris: [...DEMO.app.redirectUris],
    sandboxCredentials: { ...DEMO.sandbox },
  });
  const passwordHash = await hashPassword(DEMO.driver.password);
  await db().transaction(async (tx) => {
    const account = await insertAccount(tx, {
      environment: "sandbox",
      username: DEMO.driver.username,
      passwordHash,
      firstName: "Dana",
      lastName: "Demo",
      email: "dana.demo@example.com",
      zipcode: "43215",
      timeZone: "America/New_York",
      preferredContact: "EMAIL",
    });
    await insertGrant(tx, { accountId: account.id, appId: app.id, source: "created" });
    const { car, van } = DEMO.vehicles;
    const first = await insertVehicle(tx, {
      environment: "sandbox",
      accountId: account.id,
      ...car,
      ...decodeVin(car.vin),
    });
    await insertDevice(tx, { environment: "sandbox", serial: DEMO.deviceSerial, vehicleId: first });
    await insertVehicle(tx, { environment: "sandbox", accountId: account.id, ...van, ...decodeVin(van.vin) });
  });
  await seedDemoPartner(app.id);
  const credential = (await findCredentialByClientId(db(), { clientId: DEMO.sandbox.clientId }))!;
  await demoSubscriptions(credential);
  await demoDrive(credential);
  await demoTrip(credential);
  return { created: true };
}

// The demo partner owns the demo app in the console. The app was made with production
// credentials (like the CLI's apps), so its obligations count as confirmed at seed time.
async function seedDemoPartner(appId: number): Promise<void> {
  const partnerUserId = await ensurePartnerUser(DEMO.partner);
  await db()
    .insert(partnerAppOwners)
    .values({ appId, partnerUserId, obligationsConfirmedAt: new Date() })
    .onConflictDoNothing();
}

// The demo driver's family car drives a loop in Columbus in real time (the sandbox simulator).
// Without the road data (ROADS_DIR) the service still starts; the demo car just stays parked.
async function demoDrive(credential: { appId: number; credentialId: number; clientId: string }) {
  try {
    await ensureDemoRun({
      appId: credential.appId,
      credentialId: credential.credentialId,
      clientId: credential.clientId,
      deviceSerial: DEMO.deviceSerial,
    });
  } catch (error) {
    logger.error({ err: error }, "the demo simulation could not start");
  }
}

/** The demo driver's vehicle of this label (the driver may have renamed or deleted it). */
async function demoVehicle(label: string) {
  const [row] = await db()
    .select({ id: vehicles.id, vin: vehicles.vin })
    .from(vehicles)
    .innerJoin(accounts, eq(accounts.id, vehicles.accountId))
    .where(
      and(eq(accounts.environment, "sandbox"), eq(accounts.username, DEMO.driver.username), eq(vehicles.label, label)),
    )
    .limit(1);
  return row ?? null;
}

// Only where the vehicle still has no VIN: one the driver gave it stays.
async function demoVins() {
  for (const { label, vin } of Object.values(DEMO.vehicles)) {
    const vehicle = await demoVehicle(label);
    if (vehicle && vehicle.vin === null)
      await db()
        .update(vehicles)
        .set({ vin, ...decodeVin(vin) })
        .where(and(eq(vehicles.id, vehicle.id), isNull(vehicles.vin)));
  }
}

// The van's finished trip to replay (server/simulator/demo.ts). Without the road data the
// service still starts; the van just has no trip.
async function demoTrip(credential: { appId: number; credentialId: number; clientId: string }) {
  try {
    const van = await demoVehicle(DEMO.vehicles.van.label);
    if (van) await ensureDemoTrip({ ...credential, vehicleId: van.id });
  } catch (error) {
    logger.error({ err: error }, "the demo trip could not be recorded");
  }
}

// The demo app subscribes to the demo car's events, so the newcomer's first minute also shows
// notifications: ignition changes (also e-mailed; without SMTP_URL they land in the outbox), the
// car entering and leaving downtown Columbus, and its position at most once a minute. Made through
// the subscription service as the app itself; only when the app has none (a restart adds nothing).
async function demoSubscriptions(credential: { appId: number; credentialId: number; clientId: string }) {
  try {
    if ((await countSubscriptionsOfApp(db(), { appId: credential.appId, environment: "sandbox" })) > 0) return;
    const principal = {
      kind: "client" as const,
      accountId: null,
      grant: null,
      environment: "sandbox" as const,
      via: "demo" as const,
      appId: credential.appId,
      credentialId: credential.credentialId,
      clientId: credential.clientId,
      dataProvider: false,
    };
    const car = { kind: "vehicle" as const, ref: DEMO.deviceSerial };
    await createSubscription(principal, car, "IGNITIONSTATUS", {
      notificationPeriod: "STATECHANGE",
      deliveries: [{ type: "EMAIL", recipient: DEMO.partner.email, subscriberSubject: "Demo car: ignition" }],
    });
    await createSubscription(principal, car, "GEOFENCE", {
      notificationPeriod: "STATECHANGE",
      origin: { latitude: 39.9612, longitude: -82.9988 },
      radius: 0.3,
      boundaryCondition: "INSIDE",
    });
    await createSubscription(principal, car, "WAYPOINT", { notificationPeriod: "CONTINUOUS", minimumTime: 1 });
  } catch (error) {
    logger.error({ err: error }, "the demo subscriptions could not be made");
  }
}
