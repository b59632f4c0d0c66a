import { z } from "zod";
import { environments } from "@/db/schema";
import { dateTimeLocal } from "@/common/http/fields";
import { appEventEndpointForm, setAppEventEndpoint } from "./app-event-endpoint";
import { appInput, confirmObligations, createConsoleApp, rotateSecret, updateConsoleApp } from "./apps";
import { createTestAccount, createTestVehicle } from "./connected";
import { resendFailed, resendNotification, sendConsoleTestNotification } from "./deliveries";
import { setInboxAnswer } from "./inbox";
import type { PartnerSession } from "./session";
import { revealSigningSecret, rotateAppSigningSecret } from "./signing";
import {
  saveConsoleRoute,
  savedRouteForm,
  simulatorForm,
  startConsoleSimulation,
  stopConsoleSimulation,
} from "./simulator";
import { createAppSubscription, deleteAppSubscription, reactivateDelivery, subscriptionForm } from "./subscriptions";

const id = z
  .string()
  .regex(/^\d{1,10}$/, "Not an id.")
  .transform(Number);
const appRef = z.object({ appId: id });
const checkbox = z
  .literal("on")
  .optional()
  .transform((v) => v === "on");
const environment = z.enum(environments, "Choose sandbox or production.");

/** What an action answers: where to go next, and what to show once (a new secret, test credentials). */
export type ActionResult = { redirect: string; reveal?: Record<string, string | number> };

export type Action = { schema: z.ZodType; run: (partner: PartnerSession, input: never) => Promise<ActionResult> };
const action = <S extends z.ZodType>(
  schema: S,
  run: (partner: PartnerSession, input: z.output<S>) => Promise<ActionResult>,
): Action => ({ schema, run: run as Action["run"] });

const appPath = (appId: number, rest = "") => `/console/apps/${appId}${rest}`;

// Every state-changing console form, by name (POST /console/actions/{name}, run by the wrapper in
// server/http/with-console-action.ts). Each input's schema is named here; each function below
// checks that the partner owns the app it names.
export const consoleActions: Record<string, Action> = {
  "create-app": action(appInput, async (p, input) => {
    const created = await createConsoleApp(p.partnerUserId, input);
    return {
      redirect: appPath(created.appId),
      reveal: {
        environment: "sandbox",
        clientId: created.sandbox.clientId,
        clientSecret: created.sandbox.clientSecret,
      },
    };
  }),
  "update-app": action(appRef.and(appInput), async (p, input) => {
    await updateConsoleApp(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId) };
  }),
  "rotate-secret": action(appRef.extend({ environment }), async (p, input) => {
    const rotated = await rotateSecret(p.partnerUserId, input.appId, input.environment);
    return {
      redirect: appPath(input.appId),
      reveal: { environment: input.environment, clientId: rotated.clientId, clientSecret: rotated.clientSecret },
    };
  }),
  "confirm-obligations": action(
    appRef.extend({ credentials: checkbox, driverSite: checkbox, dataStatement: checkbox }),
    async (p, input) => {
      const issued = await confirmObligations(p.partnerUserId, input.appId, input);
      return {
        redirect: appPath(input.appId),
        reveal: { environment: "production", clientId: issued.clientId, clientSecret: issued.clientSecret },
      };
    },
  ),
  "create-test-account": action(appRef, async (p, input) => {
    const made = await createTestAccount(p.partnerUserId, input.appId);
    return {
      redirect: appPath(input.appId, "/accounts"),
      reveal: { accountId: made.accountId, username: made.username, password: made.password },
    };
  }),
  "create-test-vehicle": action(appRef.extend({ accountId: id }), async (p, input) => {
    const made = await createTestVehicle(p.partnerUserId, input.appId, input.accountId);
    return {
      redirect: appPath(input.appId, "/accounts"),
      reveal: { vehicleId: made.vehicleId, deviceId: made.deviceId },
    };
  }),
  "create-subscription": action(appRef.extend({ environment }).and(subscriptionForm), async (p, input) => {
    const made = await createAppSubscription(p.partnerUserId, input.appId, input.environment, input);
    return {
      redirect: `${appPath(input.appId, "/subscriptions")}?env=${input.environment}`,
      reveal: { subscriptionId: made.subscriptionId },
    };
  }),
  "delete-subscription": action(appRef.extend({ subscriptionId: id, environment }), async (p, input) => {
    await deleteAppSubscription(p.partnerUserId, input.appId, input.subscriptionId);
    return { redirect: `${appPath(input.appId, "/subscriptions")}?env=${input.environment}` };
  }),
  "reactivate-delivery": action(
    appRef.extend({
      subscriptionId: id,
      deliveryId: id,
      environment,
      returnTo: z.enum(["subscriptions", "health"]).default("subscriptions"),
    }),
    async (p, input) => {
      await reactivateDelivery(p.partnerUserId, input.appId, input.subscriptionId, input.deliveryId);
      return { redirect: `${appPath(input.appId, `/${input.returnTo}`)}?env=${input.environment}` };
    },
  ),
  "set-app-event-endpoint": action(appRef.and(appEventEndpointForm), async (p, input) => {
    await setAppEventEndpoint(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId) };
  }),
  "reveal-signing-secret": action(appRef, async (p, input) => {
    return {
      redirect: appPath(input.appId),
      reveal: { signingSecret: await revealSigningSecret(p.partnerUserId, input.appId) },
    };
  }),
  "rotate-signing-secret": action(appRef, async (p, input) => {
    const rotated = await rotateAppSigningSecret(p.partnerUserId, input.appId);
    return {
      redirect: appPath(input.appId),
      reveal: { signingSecret: rotated.secret, previousSecretSignsUntil: rotated.previousExpiresAt.toISOString() },
    };
  }),
  "resend-notification": action(appRef.extend({ notificationId: id }), async (p, input) => {
    await resendNotification(p.partnerUserId, input.appId, input.notificationId);
    return { redirect: appPath(input.appId, `/notifications/${input.notificationId}`) };
  }),
  "resend-failed": action(appRef.extend({ environment, since: dateTimeLocal }), async (p, input) => {
    const resent = await resendFailed(p.partnerUserId, input.appId, input.environment, input.since);
    return {
      redirect: `${appPath(input.appId, "/notifications")}?env=${input.environment}`,
      reveal: {
        requeued: resent.requeued,
        skippedDeactivated: resent.skippedInactive,
        moreRemain: resent.more ? "yes: send again for the rest" : "no",
      },
    };
  }),
  "send-test-notification": action(appRef.extend({ subscriptionId: id }), async (p, input) => {
    const sent = await sendConsoleTestNotification(p.partnerUserId, input.appId, input.subscriptionId);
    return {
      redirect: appPath(input.appId, `/notifications/${sent.notificationId}`),
      reveal: { notificationId: sent.notificationId },
    };
  }),
  "start-simulation": action(appRef.and(simulatorForm), async (p, input) => {
    const started = await startConsoleSimulation(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId, "/simulator"), reveal: started };
  }),
  "stop-simulation": action(appRef.extend({ vehicleId: id, runId: id }), async (p, input) => {
    await stopConsoleSimulation(p.partnerUserId, input.appId, input.vehicleId, input.runId);
    return { redirect: appPath(input.appId, "/simulator") };
  }),
  "set-inbox-answer": action(
    appRef.extend({
      answerStatus: z
        .enum(["200", "401", "500"], "Choose 200, 401 or 500.")
        .transform((v) => Number(v) as 200 | 401 | 500),
    }),
    async (p, input) => {
      await setInboxAnswer(p.partnerUserId, input.appId, input.answerStatus);
      return { redirect: appPath(input.appId, "/inbox") };
    },
  ),
  "save-route": action(appRef.and(savedRouteForm), async (p, input) => {
    const saved = await saveConsoleRoute(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId, "/simulator"), reveal: saved };
  }),
};
