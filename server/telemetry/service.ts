import { notFound, validationError } from "@/common/http/errors";
import type { Page } from "@/common/http/paging";
import type { Principal } from "@/server/api-auth/principal";
import { getVisibleAccount } from "@/server/accounts/service";
import { getVisibleVehicle } from "@/server/vehicles/service";
import { grantFor, requireScope } from "@/server/grants/grant-view";
import { accountPoints, pointsSinceLastCall } from "./account-data";
import { findDataSet, findTrip, latestPerKey, listDataPoints, listDataSets, listTrips } from "./queries";
import { dataSetsOfTrips } from "./trip-data-sets";
import { serializePoint, serializeTrip } from "./serialize";

// Reads of device data. Every one starts from a vehicle (or account) the caller may see, so a
// foreign id is a 404 before any data is touched; then the app's grant for that account decides:
// without the `data` scope, 403; positions at the granted precision (docs/oauth.md#scopes).

/** The vehicle, and the precision its account's driver granted the caller, once `data` is granted. */
async function readableVehicle(principal: Principal, ref: string) {
  const vehicle = await getVisibleVehicle(principal, ref);
  const grant = await grantFor(principal, vehicle.accountId);
  requireScope(grant, "data");
  return { vehicle, precision: grant.location };
}

type Order = "asc" | "desc";

export async function tripsOfVehicle(
  principal: Principal,
  ref: string,
  opts: { startedAfter?: Date; startedBefore?: Date; includeData: boolean; page: Page; order: Order },
) {
  const { vehicle, precision } = await readableVehicle(principal, ref);
  const { rows, total } = await listTrips({ vehicleId: vehicle.id, ...opts });
  const data = opts.includeData
    ? await dataSetsOfTrips(
        rows.map((t) => t.id),
        precision,
      )
    : null;
  return { items: rows.map((t) => serializeTrip(t, precision, data ? (data.get(t.id) ?? []) : undefined)), total };
}

export async function tripOfVehicle(principal: Principal, ref: string, tripId: number) {
  const { vehicle, precision } = await readableVehicle(principal, ref);
  const trip = await findTrip({ vehicleId: vehicle.id, tripId });
  if (!trip) throw notFound("trip");
  const data = await dataSetsOfTrips([trip.id], precision);
  return serializeTrip(trip, precision, data.get(trip.id) ?? []);
}

export async function dataSetsOfVehicle(principal: Principal, ref: string, opts: { page: Page; order: Order }) {
  const { vehicle, precision } = await readableVehicle(principal, ref);
  return listDataSets({ vehicleId: vehicle.id, ...opts, precision });
}

export async function dataSetOfVehicle(principal: Principal, ref: string, dataSetId: number) {
  const { vehicle, precision } = await readableVehicle(principal, ref);
  const set = await findDataSet({ vehicleId: vehicle.id, id: dataSetId, precision });
  if (!set) throw notFound("data set");
  return set;
}

export async function dataOfVehicle(
  principal: Principal,
  ref: string,
  opts: { key?: string; mostRecentOnly: boolean; page: Page; order: Order },
) {
  const { vehicle, precision } = await readableVehicle(principal, ref);
  if (opts.mostRecentOnly) {
    const rows = await latestPerKey({ vehicleId: vehicle.id, key: opts.key });
    return {
      items: rows.map((r) => ({ vehicleId: r.vehicleId, ...serializePoint(r, precision) })),
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
  return {
    items: rows.map((r) => ({ vehicleId: r.vehicleId, ...serializePoint(r, precision) })),
    total,
    paged: true,
  };
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

  const grant = await grantFor(principal, accountId);
  requireScope(grant, "data");
  const precision = grant.location;
  if (opts.sinceLastCall) {
    const items = await pointsSinceLastCall({ appId: principal.appId, accountId, limit: opts.page.limit, precision });
    return { items, total: items.length, paged: false };
  }
  return { ...(await accountPoints({ accountId, page: opts.page, precision })), paged: true };
}
