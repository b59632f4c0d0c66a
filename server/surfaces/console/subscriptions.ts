import { and, desc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import { db } from "@/db/client";
import { subscriptionDeliveries, subscriptions, type Environment } from "@/db/schema";
import { ApiError } from "@/common/http/errors";
import { toFieldErrors } from "@/common/http/zod-errors";
import { EVENT_TYPE_NAMES, typeInfo, type EventType } from "@/common/subscriptions/event-types";
import { deliveriesOf } from "@/server/subscriptions/queries";
import { subscriptionBody } from "@/server/subscriptions/schemas";
import { serializeSubscription } from "@/server/subscriptions/serialize";
import { createSubscription, deleteSubscription, type Prefix } from "@/server/subscriptions/service";
import { notOwned } from "./errors";
import { consolePrincipal } from "./principal";

// Every subscription of the app in one environment, all three scopes, newest first, deleted ones
// included (they stay listed: docs/subscriptions.md), each with its deliveries' active state.
export async function listAppSubscriptions(partnerUserId: number, appId: number, environment: Environment) {
  await consolePrincipal(partnerUserId, appId, environment);
  const rows = await db()
    .select()
    .from(subscriptions)
    .where(
      and(eq(subscriptions.appId, appId), eq(subscriptions.environment, environment), ne(subscriptions.scope, "APP")),
    )
    .orderBy(desc(subscriptions.id))
    .limit(500);
  const deliveries = await deliveriesOf(
    db(),
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ scope: r.scope, ...serializeSubscription(r, deliveries.get(r.id) ?? []) }));
}

const scope = z.enum(["VEHICLE", "ACCOUNT", "SYSTEM"], "Choose vehicle, account or system.");
const target = z.string().trim().max(64).default("");
const type = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(EVENT_TYPE_NAMES as [EventType, ...EventType[]], "Choose an event type."));
const deliveryKind = z.enum(["NONE", "HTTP_POST", "EMAIL"], "Choose how notifications are delivered.");

/** The console's subscription form: flat fields, mapped to the API's body (subscriptionBody). */
export const subscriptionForm = z.object({
  scope,
  target,
  type,
  notificationPeriod: z.string().trim().default(""),
  minimumTime: z.string().trim().default(""),
  delivery: deliveryKind.default("NONE"),
  postUrl: z.string().trim().default(""),
  recipient: z.string().trim().default(""),
  latitude: z.string().trim().default(""),
  longitude: z.string().trim().default(""),
  radius: z.string().trim().default(""),
  boundaryCondition: z.string().trim().default(""),
  ignitionStatus: z.string().trim().default(""),
  dataKey: z.string().trim().default(""),
  thresholdValue: z.string().trim().default(""),
  relationship: z.string().trim().default(""),
  startTime: z.string().trim().default(""),
  endTime: z.string().trim().default(""),
  daysOfWeek: z.union([z.string(), z.array(z.string())]).default([]),
});
export type SubscriptionForm = z.output<typeof subscriptionForm>;

function apiBody(form: SubscriptionForm): Record<string, unknown> {
  const set = (v: string) => (v === "" ? undefined : v);
  const days = (Array.isArray(form.daysOfWeek) ? form.daysOfWeek : [form.daysOfWeek]).filter(Boolean);
  const deliveries =
    form.delivery === "HTTP_POST"
      ? [{ type: "HTTP_POST", postUrl: form.postUrl }]
      : form.delivery === "EMAIL"
        ? [{ type: "EMAIL", recipient: form.recipient }]
        : [];
  const body: Record<string, unknown> = {
    notificationPeriod: set(form.notificationPeriod),
    minimumTime: set(form.minimumTime),
    deliveries,
    origin: form.latitude || form.longitude ? { latitude: form.latitude, longitude: form.longitude } : undefined,
    radius: set(form.radius),
    boundaryCondition: set(form.boundaryCondition),
    ignitionStatus: set(form.ignitionStatus),
    dataKey: set(form.dataKey),
    thresholdValue: set(form.thresholdValue),
    relationship: set(form.relationship),
    startTime: set(form.startTime),
    endTime: set(form.endTime),
    daysOfWeek: days.length ? days : undefined,
  };
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}

// The API's field names map back onto the form's (deliveries.0.postUrl → postUrl, origin.* → latitude…).
function formField(name: string): string {
  if (name.startsWith("deliveries")) return name.endsWith("recipient") ? "recipient" : "postUrl";
  if (name === "origin.latitude") return "latitude";
  if (name === "origin.longitude") return "longitude";
  if (name === "origin") return "latitude";
  return name;
}

// Creates through the subscription service, exactly as POST …/eventSubscription/{TYPE}/ does,
// with the app's sandbox or production identity; its field errors come back per form field.
export async function createAppSubscription(
  partnerUserId: number,
  appId: number,
  environment: Environment,
  form: SubscriptionForm,
) {
  const principal = await consolePrincipal(partnerUserId, appId, environment);
  if (!typeInfo(form.type).scopes.includes(form.scope))
    throw new ApiError("VALIDATION", "Check the highlighted fields.", [
      { fieldName: "type", errorCode: "INVALID", errorDisplay: `${form.type} cannot be subscribed on this scope.` },
    ]);
  let prefix: Prefix;
  if (form.scope === "SYSTEM") prefix = { kind: "system" };
  else {
    if (!/^\d{1,10}$/.test(form.target))
      throw new ApiError("VALIDATION", "Check the highlighted fields.", [
        {
          fieldName: "target",
          errorCode: "REQUIRED",
          errorDisplay: `Choose the ${form.scope === "VEHICLE" ? "vehicle" : "account"}.`,
        },
      ]);
    prefix =
      form.scope === "VEHICLE" ? { kind: "vehicle", ref: form.target } : { kind: "account", id: Number(form.target) };
  }
  const parsed = subscriptionBody.safeParse(apiBody(form), { reportInput: true });
  if (!parsed.success)
    throw new ApiError(
      "VALIDATION",
      "Check the highlighted fields.",
      toFieldErrors(parsed.error).map((e) => ({ ...e, fieldName: formField(e.fieldName) })),
    );
  try {
    return { subscriptionId: (await createSubscription(principal, prefix, form.type, parsed.data)).id };
  } catch (error) {
    // The service's field errors (the sandbox inbox's rules name deliveries.0.postUrl) go under the form's fields.
    if (error instanceof ApiError && error.status === 400)
      throw new ApiError(
        "VALIDATION",
        error.detail,
        error.fieldErrors.map((e) => ({ ...e, fieldName: formField(e.fieldName) })),
      );
    throw error;
  }
}

async function ownSubscriptionRow(partnerUserId: number, appId: number, id: number) {
  const [row] = await db()
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.appId, appId)));
  if (!row) throw notOwned("subscription");
  return { row, principal: await consolePrincipal(partnerUserId, appId, row.environment) };
}

export async function deleteAppSubscription(partnerUserId: number, appId: number, id: number) {
  const { row, principal } = await ownSubscriptionRow(partnerUserId, appId, id);
  if (row.deletedAt) return;
  const prefix: Prefix =
    row.scope === "VEHICLE"
      ? { kind: "vehicle", ref: String(row.vehicleId) }
      : row.scope === "ACCOUNT"
        ? { kind: "account", id: row.accountId! }
        : { kind: "system" };
  await deleteSubscription(principal, prefix, null, row.id);
}

// The public API cannot set `active`: a delivery deactivated by the receiver's answers
// (docs/delivery.md#answers) is switched back on here, once the partner has fixed the receiver.
export async function reactivateDelivery(
  partnerUserId: number,
  appId: number,
  subscriptionId: number,
  deliveryId: number,
) {
  const { row } = await ownSubscriptionRow(partnerUserId, appId, subscriptionId);
  if (row.deletedAt) throw new ApiError("CANNOTPERSIST", "The subscription is deleted.");
  const updated = await db()
    .update(subscriptionDeliveries)
    .set({ active: true, deactivationReason: null, deactivatedAt: null })
    .where(and(eq(subscriptionDeliveries.id, deliveryId), eq(subscriptionDeliveries.subscriptionId, row.id)))
    .returning({ id: subscriptionDeliveries.id });
  if (updated.length === 0) throw notOwned("delivery");
}
