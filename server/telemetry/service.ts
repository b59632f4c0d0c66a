import { notFound, validationError } from "@/common/http/errors";
import type { Page } from "@/common/http/paging";
import type { Principal } from "@/server/oauth/principal";
import { getVisibleAccount } from "@/server/accounts/service";
import { getVisibleVehicle } from "@/server/vehicles/service";
import { accountPoints, pointsSinceLastCall } from "./account-data";
import { findDataSet, findTrip, latestPerKey, listDataPoints, listDataSets, listTrips } from "./queries";
import { dataSetsOfTrips } from "./trip-data-sets";
import { serializePoint, serializeTrip } from "./serialize";

// Reads of device data. Every one starts from a vehicle (or account) the caller may see, so a
// foreign id is a 404 before any data is touched.

type Order = "asc" | "desc";

export async function tripsOfVehicle(
  principal: Principal,
  ref: string,
  opts: { startedAfter?: Date; startedBefore?: Date; includeData: boolean; page: Page; order: Order },
) {
  const vehicle = await getVisibleVehicle(principal, ref);
  const { rows, total } = await listTrips({ vehicleId: vehicle.id, ...opts });
  const data = opts.includeData ? await dataSetsOfTrips(rows.map((t) => t.id)) : null;
  return { items: rows.map((t) => serializeTrip(t, data ? (data.get(t.id) ?? []) : undefined)), total };
}

export async function tripOfVehicle(principal: Principal, ref: string, tripId: number) {
  const vehicle = await getVisibleVehicle(principal, ref);
  const trip = await findTrip({ vehicleId: vehicle.id, tripId });
  if (!trip) throw notFound("trip");
  const data = await dataSetsOfTrips([trip.id]);
  return serializeTrip(trip, data.get(trip.id) ?? []);
}

export async function dataSetsOfVehicle(principal: Principal, ref: string, opts: { page: Page; order: Order }) {
  const vehicle = await getVisibleVehicle(principal, ref);
  return listDataSets({ vehicleId: vehicle.id, ...opts });
}

export async function dataSetOfVehicle(principal: Principal, ref: string, dataSetId: number) {
  const vehicle = await getVisibleVehicle(principal, ref);
  const set = await findDataSet({ vehicleId: vehicle.id, id: dataSetId });
  if (!set) throw notFound("data set");
  return set;
}

export async function dataOfVehicle(
  principal: Principal,
  ref: string,
  opts: { key?: string; mostRecentOnly: boolean; page: Page; order: Order },
) {
  const vehicle = await getVisibleVehicle(principal, ref);
  if (opts.mostRecentOnly) {
    const rows = await latestPerKey({ vehicleId: vehicle.id, key: opts.key });
    return {
      items: rows.map((r) => ({ vehicleId: r.vehicleId, ...serializePoint(r) })),
      total: rows.length,
      paged: false,
    };
  }
  const { rows, total } = await listDataPoints({
    vehicleId: vehicle.id,
    key: opts.key,
    page: opts.page,
    order: opts.order,
  });
  return { items: rows.map((r) => ({ vehicleId: r.vehicleId, ...serializePoint(r) })), total, paged: true };
}

// A user token reads its own account; a client-credentials token names one of its accounts.
export async function dataOfAccount(
  principal: Principal,
  opts: { accountId?: number; sinceLastCall: boolean; page: Page },
) {
  let accountId: number;
  if (principal.kind === "user") accountId = principal.accountId;
  else if (opts.accountId === undefined) {
    throw validationError([
      {
        fieldName: "accountId",
        errorCode: "REQUIRED",
        errorDisplay: "accountId is required with a client-credentials token.",
      },
    ]);
  } else accountId = (await getVisibleAccount(principal, opts.accountId)).id;

  if (opts.sinceLastCall) {
    const items = await pointsSinceLastCall({ appId: principal.appId, accountId, limit: opts.page.limit });
    return { items, total: items.length, paged: false };
  }
  return { ...(await accountPoints({ accountId, page: opts.page })), paged: true };
}
