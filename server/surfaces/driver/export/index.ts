import type { DriverSession } from "@/server/surfaces/driver/session";
import { accessCsvOfAccount } from "@/server/access-log/views";
import { csvLine } from "@/server/access-log/csv";
import { db } from "@/db/client";
import { listActiveGrants } from "@/server/grants/grant-queries";
import { placesToGeoJson } from "@/server/places/geojson";
import { listPlaces } from "@/server/places/service";
import { serializeNotification } from "@/server/notifications/serialize";
import { shareLinksForExport } from "@/server/sharing/service";
import { exportAlertsOf } from "@/server/alerts/service";
import { listVisibleVehicles } from "@/server/vehicles/service";
import type { VehicleOut } from "@/server/vehicles/schemas";
import { getDriverAccount } from "../account";
import { driverPrincipal } from "../principal";
import { readTrack } from "../track-queries";
import { GEOJSON_HEAD, GEOJSON_TAIL, GPX_HEAD, GPX_TAIL, geojsonFeature, gpxTrack, type ExportTrip } from "./formats";
import { claimExport, releasedWhenDone } from "./one-at-a-time";
import { readPointCsvBatch, type PointCursor } from "./point-batches";
import { exportTotals, notificationBatch, tripBatch } from "./queries";
import { zipStream } from "./zip";

// "Download my data" (docs/driver-site.md#download-my-data): the account, its vehicles, trips as
// GPX and GeoJSON, data points as CSV, notifications, the driver's alerts, connected apps with their
// grants, the shared locations' links, and the access log, as one ZIP streamed while it is read.
// Every read goes a batch at a time, so memory holds a batch, not the export. The totals go ahead of the body (headers), for the page's
// progress; the body is read afterwards, so rows arriving meanwhile may be in it too.

const POINT_BATCH = 5000;
const TRIP_BATCH = 200;
const NOTE_BATCH = 1000;

export type DriverExport = {
  filename: string;
  totals: { dataPoints: number; trips: number; notifications: number; vehicles: number };
  body: ReadableStream<Uint8Array>;
};

/** The account's export; 429 RATE_LIMITED while another of its exports runs (one-at-a-time.ts). */
export async function exportDriverData(session: DriverSession, signal?: AbortSignal): Promise<DriverExport> {
  const claim = await claimExport(session.accountId);
  try {
    const data = await buildExport(session);
    return { ...data, body: releasedWhenDone(data.body, claim, signal) };
  } catch (error) {
    await claim.release();
    throw error;
  }
}

async function buildExport(session: DriverSession): Promise<DriverExport> {
  const accountId = session.accountId;
  const [account, vehicles] = await Promise.all([getDriverAccount(session), allVehicles(session)]);
  const vehicleIds = vehicles.map((v) => v.vehicleId);
  const totals = await exportTotals({ accountId, vehicleIds });
  const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";

  const body = zipStream([
    { name: "README.txt", content: once(readme(account.id)) },
    { name: "account.json", content: once(json(account)) },
    { name: "vehicles.json", content: once(json(vehicles)) },
    {
      name: "connected-apps.json",
      content: async function* () {
        const grants = await listActiveGrants(db(), { accountId });
        yield json(
          grants.map((g) => ({
            appId: g.appId,
            name: g.name,
            ownerName: g.ownerName,
            grant: {
              how: g.source,
              since: g.grantedAt.toISOString(),
              lastUsedAt: g.lastUsedAt ? new Date(g.lastUsedAt).toISOString() : null,
            },
          })),
        );
      },
    },
    {
      name: "trips.gpx",
      content: async function* () {
        yield GPX_HEAD;
        for await (const [trip, track] of tripsWithTracks(vehicles)) yield gpxTrack(trip, track);
        yield GPX_TAIL;
      },
    },
    {
      name: "trips.geojson",
      content: async function* () {
        yield GEOJSON_HEAD;
        let first = true;
        for await (const [trip, track] of tripsWithTracks(vehicles)) {
          yield (first ? "" : ",\n") + geojsonFeature(trip, track);
          first = false;
        }
        yield GEOJSON_TAIL;
      },
    },
    {
      name: "places.geojson",
      content: async function* () {
        yield placesToGeoJson(await listPlaces(accountId));
      },
    },
    { name: "data-points.csv", content: () => dataPointsCsv(vehicleIds) },
    {
      name: "notifications.json",
      content: async function* () {
        yield "[\n";
        let afterId = 0;
        let first = true;
        for (;;) {
          const rows = await notificationBatch({ accountId, vehicleIds, afterId, limit: NOTE_BATCH });
          // The driver's own data, as recorded: an app's location grant does not apply to its owner.
          if (rows.length === 0) break;
          yield rows
            .map(
              (r) =>
                (first ? ((first = false), "") : ",\n") +
                JSON.stringify(serializeNotification(r, { precision: "precise" })),
            )
            .join("");
          afterId = rows[rows.length - 1]!.id;
        }
        yield "\n]\n";
      },
    },
    {
      name: "shared-links.json",
      content: async function* () {
        yield json(await shareLinksForExport(accountId));
      },
    },
    {
      name: "alerts.json",
      content: async function* () {
        yield json(await exportAlertsOf(accountId));
      },
    },
    {
      name: "access-log.csv",
      content: async function* () {
        yield await accessCsvOfAccount(accountId);
      },
    },
  ]);

  return {
    filename: `wayline-data-${accountId}.zip`,
    totals: { ...totals, vehicles: vehicles.length },
    body,
  };
}

const DATA_POINTS_CSV_HEADER = ["vehicle_id", "data_set_id", "point_id", "timestamp_utc", "key", "value"];

async function* dataPointsCsv(vehicleIds: number[]): AsyncGenerator<string> {
  yield csvLine(DATA_POINTS_CSV_HEADER);
  for (const vehicleId of vehicleIds) {
    let after: PointCursor = null;
    for (;;) {
      const batch = await readPointCsvBatch({ vehicleId, after, limit: POINT_BATCH });
      if (batch.rows === 0) break;
      yield batch.text;
      after = batch.last;
      if (batch.rows < POINT_BATCH) break;
    }
  }
}

async function* tripsWithTracks(vehicles: VehicleOut[]) {
  for (const vehicle of vehicles) {
    let afterId = 0;
    for (;;) {
      const rows = await tripBatch({ vehicleId: vehicle.vehicleId, afterId, limit: TRIP_BATCH });
      if (rows.length === 0) break;
      for (const t of rows) {
        const trip: ExportTrip = {
          id: t.id,
          vehicleId: vehicle.vehicleId,
          vehicleName: vehicle.label ?? vehicle.name,
          startTime: t.startTime,
          endTime: t.endTime,
          mileage: t.mileage,
        };
        yield [trip, await readTrack({ vehicleId: vehicle.vehicleId, tripId: t.id })] as const;
      }
      afterId = rows[rows.length - 1]!.id;
    }
  }
}

async function allVehicles(session: DriverSession): Promise<VehicleOut[]> {
  const all: VehicleOut[] = [];
  for (let offset = 0; ; offset += 500) {
    const { items, total } = await listVisibleVehicles(driverPrincipal(session), { limit: 500, offset });
    all.push(...items);
    if (all.length >= total || items.length === 0) return all;
  }
}

const once = (text: string) =>
  async function* () {
    yield text;
  };

function readme(accountId: number): string {
  return `Your Wayline data (account ${accountId}), exported ${new Date().toISOString()}.

account.json          your account's fields
vehicles.json         your vehicles, as the API shows them
connected-apps.json   the apps that can reach your account, and how they got access
trips.gpx             every trip's path, GPX 1.1 (one track per trip)
trips.geojson         the same trips as GeoJSON (one feature per trip; coordinates longitude, latitude)
places.geojson        your places (circles as a Point with properties.radius in metres), as the map exports them
data-points.csv       every data point your vehicles reported (times in UTC)
notifications.json    the notifications apps' subscriptions made about your account and vehicles
shared-links.json     the links you made to share a vehicle's live location, and how often each was opened
alerts.json           your alert settings (kinds, channels, thresholds, quiet hours) and every alert with its outcomes
access-log.csv        which app received which of your data, per hour, and each opening of a shared
                      location ("shared link"), the last 90 days
`;
}
