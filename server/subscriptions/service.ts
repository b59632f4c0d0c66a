import { grantFor, requireScope } from "@/server/grants/grant-view";
import type { GrantScope } from "@/common/oauth/grant-scope";
import { db, type Executor } from "@/db/client";
import { foreignKeyViolation, retryingDeadlocks } from "@/db/errors";
import { getVisibleAccount } from "@/server/accounts/service";
import { ApiError, notFound, validationError, type FieldError } from "@/common/http/errors";
import type { Page } from "@/common/http/paging";
import { inboxTargetErrors } from "@/server/inbox/targets";
import type { Principal } from "@/server/api-auth/principal";
import { getVisibleVehicle } from "@/server/vehicles/service";
import { resolveCriteria, criteriaOf, mergeCriteria } from "./criteria";
import { typeInfo, type EventType, type NotificationPeriod, type Scope } from "@/common/subscriptions/event-types";
import {
  deliveriesOf,
  findSubscriptionRow,
  insertSubscriptionRow,
  listSubscriptionRows,
  markSubscriptionDeleted,
  replaceDeliveries,
  updateSubscriptionRow,
  type NewDelivery,
  type Owner,
  type Target,
} from "./queries";
import { CRITERIA_FIELDS, type DeliveryInput, type SubscriptionInput } from "./schemas";
import { serializeSubscription, type DeliveryRow, type SubscriptionRow } from "./serialize";

// Subscriptions under a vehicle, an account or the system (docs/subscriptions.md). The prefix is checked
// first (a vehicle or account the caller cannot see is 404), then the subscription must be the
// calling app's own: another app's subscription is 404 too, never revealed.

export type Prefix = { kind: "vehicle"; ref: string } | { kind: "account"; id: number } | { kind: "system" };

export async function resolveTarget(principal: Principal, prefix: Prefix): Promise<Target> {
  if (prefix.kind === "vehicle") {
    const vehicle = await getVisibleVehicle(principal, prefix.ref);
    return { scope: "VEHICLE", vehicleId: vehicle.id, accountId: vehicle.accountId };
  }
  if (prefix.kind === "account") {
    const account = await getVisibleAccount(principal, prefix.id);
    return { scope: "ACCOUNT", accountId: account.id };
  }
  if (principal.kind !== "client")
    throw new ApiError("FORBIDDEN", "System subscriptions require a client-credentials token.");
  return { scope: "SYSTEM" };
}

const ownerOf = (principal: Principal): Owner => ({ environment: principal.environment, appId: principal.appId });

async function withDeliveries(rows: SubscriptionRow[], executor: Executor = db()) {
  const deliveries = await deliveriesOf(
    executor,
    rows.map((r) => r.id),
  );
  return rows.map((r) => serializeSubscription(r, deliveries.get(r.id) ?? []));
}

export async function listSubscriptions(
  principal: Principal,
  prefix: Prefix,
  type: EventType | null,
  page: Page,
  order: "asc" | "desc",
) {
  const target = await resolveTarget(principal, prefix);
  const { rows, total } = await listSubscriptionRows(db(), {
    owner: ownerOf(principal),
    target,
    type: type ?? undefined,
    page,
    order,
  });
  return { items: await withDeliveries(rows), total };
}

async function findOwn(
  principal: Principal,
  target: Target,
  type: EventType | null,
  id: number,
  forUpdate = false,
  executor = db(),
) {
  const row = await findSubscriptionRow(executor, { owner: ownerOf(principal), target, id, forUpdate });
  // A type in the path must be the subscription's own (…/GEOFENCE/{id} does not name a WAYPOINT one).
  if (!row || (type && row.type !== type)) throw notFound("subscription");
  return row;
}

export async function getSubscription(principal: Principal, prefix: Prefix, type: EventType | null, id: number) {
  const target = await resolveTarget(principal, prefix);
  const [out] = await withDeliveries([await findOwn(principal, target, type, id)]);
  return out!;
}

function checkPeriod(type: EventType, period: NotificationPeriod): FieldError[] {
  const allowed = typeInfo(type).periods;
  if (allowed.includes(period as never)) return [];
  return [
    {
      fieldName: "notificationPeriod",
      errorCode: "INVALID",
      errorDisplay: `${type} subscriptions allow ${allowed.join(", ")}.`,
    },
  ];
}

const scopeNames: Record<Scope, string> = { VEHICLE: "a vehicle", ACCOUNT: "an account", SYSTEM: "the system" };

type WantedDelivery = NewDelivery & { id?: number };

// The deliveries a body asks for: the legacy postUrl/postHeaders form as an HTTP_POST delivery
// first, then the deliveries array (each kind's required field was checked by deliveryBody).
function wantedDeliveries(
  input: {
    postUrl: string | null;
    postHeaders: Record<string, string> | null;
    legacyId?: number;
    deliveries: DeliveryInput[];
  },
  known: DeliveryRow[],
): { wanted: WantedDelivery[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const wanted: WantedDelivery[] = [];
  if (input.postUrl)
    wanted.push({
      id: input.legacyId,
      type: "HTTP_POST",
      postUrl: input.postUrl,
      postHeaders: input.postHeaders,
      oauth2: null,
      recipient: null,
      subscriberSubject: null,
      subscriberContent: null,
    });
  const knownIds = new Set(known.map((d) => d.id));
  input.deliveries.forEach((d, i) => {
    const at = `deliveries.${i}`;
    // An echoed legacy delivery is the legacy one, already above.
    if (d.id !== undefined && d.id === input.legacyId && input.postUrl) return;
    if (d.id !== undefined && !knownIds.has(d.id))
      errors.push({
        fieldName: `${at}.id`,
        errorCode: "INVALID",
        errorDisplay: "Not a delivery of this subscription (leave id out to add one).",
      });
    if (d.type === "HTTP_POST") {
      wanted.push({
        id: d.id,
        type: "HTTP_POST",
        postUrl: d.postUrl ?? null,
        postHeaders: d.postHeaders ?? null,
        oauth2: d.oauth2 ?? null,
        recipient: null,
        subscriberSubject: null,
        subscriberContent: null,
      });
    } else {
      wanted.push({
        id: d.id,
        type: "EMAIL",
        postUrl: null,
        postHeaders: null,
        oauth2: null,
        recipient: d.recipient ?? null,
        subscriberSubject: d.subscriberSubject ?? null,
        subscriberContent: d.subscriberContent ?? null,
      });
    }
  });
  if (wanted.length > 10)
    errors.push({
      fieldName: "deliveries",
      errorCode: "INVALID",
      errorDisplay: "At most 10 deliveries per subscription.",
    });
  return { wanted, errors };
}

// The URLs a body names, by field, for the sandbox inbox's rules.
const inboxTargets = (body: SubscriptionInput) => [
  { field: "postUrl", url: body.postUrl },
  ...(body.deliveries ?? []).map((d, i) => ({ field: `deliveries.${i}.postUrl`, url: d.postUrl })),
];

const criteriaInput = (body: SubscriptionInput) =>
  Object.fromEntries(CRITERIA_FIELDS.flatMap((k) => (body[k] === undefined ? [] : [[k, body[k]]])));

export async function createSubscription(
  principal: Principal,
  prefix: Prefix,
  type: EventType,
  body: SubscriptionInput,
) {
  const target = await resolveTarget(principal, prefix);
  const info = typeInfo(type);
  if (!info.scopes.includes(target.scope as never)) {
    throw validationError(
      [],
      `${type} subscriptions are made on ${info.scopes.map((s) => scopeNames[s]).join(" or ")}, not on ${scopeNames[target.scope]}.`,
    );
  }
  if (target.scope !== "SYSTEM") requireGrantFor(type, await grantFor(principal, target.accountId));
  const period = body.notificationPeriod ?? info.periods[0]!;
  const criteria = resolveCriteria(type, criteriaInput(body));
  const deliveries = wantedDeliveries(
    { postUrl: body.postUrl ?? null, postHeaders: body.postHeaders ?? null, deliveries: body.deliveries ?? [] },
    [],
  );
  const errors = [
    ...checkPeriod(type, period),
    ...("errors" in criteria ? criteria.errors : []),
    ...deliveries.errors,
    ...(await inboxTargetErrors(principal, inboxTargets(body))),
  ];
  if (errors.length > 0 || "errors" in criteria) throw validationError(errors);

  // Answered from the transaction that made it: a vehicle deleted right after the commit takes the
  // subscription along, and a read after it would find nothing. One deleted before the insert is a
  // 404, as it would have been a moment earlier; a deadlock with a delivery worker is run again.
  try {
    return await retryingDeadlocks(() =>
      db().transaction(async (tx) => {
        const row = await insertSubscriptionRow(tx, {
          environment: principal.environment,
          appId: principal.appId,
          clientId: principal.clientId,
          scope: target.scope,
          accountId: target.scope === "SYSTEM" ? null : target.accountId,
          vehicleId: target.scope === "VEHICLE" ? target.vehicleId : null,
          type,
          notificationPeriod: period,
          minimumTime: body.minimumTime ?? 0,
          criteria: criteria.criteria,
          postUrl: body.postUrl ?? null,
          postHeaders: body.postUrl ? (body.postHeaders ?? null) : null,
        });
        await replaceDeliveries(tx, row.id, deliveries.wanted);
        const [out] = await withDeliveries([row], tx);
        return out!;
      }),
    );
  } catch (error) {
    if (foreignKeyViolation(error)) throw notFound(target.scope === "VEHICLE" ? "vehicle" : "account");
    throw error;
  }
}

// POST to an existing subscription changes the fields sent (docs/subscriptions.md#paths);
// the type and the scope stay. Criteria are re-checked as a whole, merged with the stored ones.
export async function updateSubscription(
  principal: Principal,
  prefix: Prefix,
  type: EventType | null,
  id: number,
  body: SubscriptionInput,
) {
  const target = await resolveTarget(principal, prefix);
  // Run again should PostgreSQL end it to break a deadlock (docs/delivery.md#lock-order).
  await retryingDeadlocks(() =>
    db().transaction(async (tx) => {
      const row = await findOwn(principal, target, type, id, true, tx);
      if (row.deletedAt) throw validationError([], "This subscription was deleted; create a new one.");
      const subType = row.type as EventType;
      const period = (body.notificationPeriod ?? row.notificationPeriod) as NotificationPeriod;
      const criteria = resolveCriteria(subType, mergeCriteria(criteriaOf(row.criteria), criteriaInput(body)));
      const existing = (await deliveriesOf(tx, [row.id])).get(row.id) ?? [];
      const legacyId = row.postUrl ? existing[0]?.id : undefined;
      const postUrl = body.postUrl ?? row.postUrl;
      const postHeaders = body.postHeaders ?? (row.postHeaders as Record<string, string> | null);
      const legacyChanged = body.postUrl !== undefined || body.postHeaders !== undefined;
      const deliveries =
        body.deliveries !== undefined || legacyChanged
          ? wantedDeliveries(
              {
                postUrl,
                postHeaders,
                legacyId,
                deliveries: body.deliveries ?? existing.filter((d) => d.id !== legacyId).map(asInput),
              },
              existing,
            )
          : null;
      const errors = [
        ...checkPeriod(subType, period),
        ...("errors" in criteria ? criteria.errors : []),
        ...(deliveries?.errors ?? []),
        ...(await inboxTargetErrors(principal, inboxTargets(body))),
      ];
      if (errors.length > 0 || "errors" in criteria) throw validationError(errors);

      await updateSubscriptionRow(tx, row.id, {
        notificationPeriod: period,
        minimumTime: body.minimumTime ?? row.minimumTime,
        criteria: criteria.criteria,
        ...(postUrl && legacyChanged ? { postUrl, postHeaders } : {}),
      });
      if (deliveries) await replaceDeliveries(tx, row.id, deliveries.wanted);
    }),
  );
  return getSubscription(principal, prefix, null, id);
}

const asInput = (d: DeliveryRow): DeliveryInput => ({
  id: d.id,
  type: d.type,
  postUrl: d.postUrl ?? undefined,
  postHeaders: (d.postHeaders as Record<string, string> | null) ?? undefined,
  oauth2: (d.oauth2 as DeliveryInput["oauth2"]) ?? undefined,
  recipient: d.recipient ?? undefined,
  subscriberSubject: d.subscriberSubject ?? undefined,
  subscriberContent: d.subscriberContent ?? undefined,
});

// DELETE marks the subscription deleted: it stays listed and its notifications stay readable.
export async function deleteSubscription(
  principal: Principal,
  prefix: Prefix,
  type: EventType | null,
  id: number,
): Promise<void> {
  const target = await resolveTarget(principal, prefix);
  const row = await findOwn(principal, target, type, id);
  await markSubscriptionDeleted(db(), row.id);
}

/**
 * What a type needs of the app's grant for the account (docs/oauth.md#scopes): GEOFENCE precise
 * location (its radius is measured from exact positions), WAYPOINT some location, the account
 * lifecycle types nothing, every other type `data`. 403 FORBIDDEN naming the missing scope. Made
 * earlier and lowered since, such a subscription stays but is not evaluated
 * (server/notifications/ingest-queries.ts).
 */
function requireGrantFor(type: EventType, grant: GrantScope) {
  if (type === "GEOFENCE" && grant.location !== "precise")
    throw new ApiError(
      "FORBIDDEN",
      'GEOFENCE subscriptions need the "location:precise" scope, which the driver has not granted this app.',
    );
  if (type === "WAYPOINT" && grant.location === "none")
    throw new ApiError(
      "FORBIDDEN",
      'WAYPOINT subscriptions need the "location:approximate" or "location:precise" scope, which the driver has not granted this app.',
    );
  if (type !== "GEOFENCE" && type !== "WAYPOINT" && type !== "VEHICLECREATED" && type !== "VEHICLEDELETED")
    requireScope(grant, "data");
}
