import { z } from "zod";
import { environments } from "@/db/schema";
import { ApiError } from "@/server/http/errors";
import { nulField } from "@/server/http/nul";
import { toFieldErrors } from "@/server/http/zod-errors";
import { crossSitePost } from "@/server/auth/csrf";
import { logger } from "@/server/log";
import { appInput, confirmObligations, createConsoleApp, rotateSecret, updateConsoleApp } from "./apps";
import { createTestAccount, createTestVehicle } from "./connected";
import { consoleCsrfMatches } from "./csrf";
import { resendFailed, resendNotification, resendSince, sendConsoleTestNotification } from "./deliveries";
import { ConsoleError } from "./errors";
import { setInboxAnswer } from "./inbox";
import { getPartnerSession, type PartnerSession } from "./session";
import { revealSigningSecret, rotateAppSigningSecret } from "./signing";
import { saveConsoleRoute, savedRouteForm, simulatorForm, startConsoleSimulation, stopConsoleSimulation } from "./simulator";
import { createAppSubscription, deleteAppSubscription, reactivateDelivery, subscriptionForm } from "./subscriptions";

const id = z.string().regex(/^\d{1,10}$/, "Not an id.").transform(Number);
const appRef = z.object({ appId: id });
const checkbox = z.literal("on").optional().transform((v) => v === "on");
const environment = z.enum(environments, "Choose sandbox or production.");

/** What an action answers: where to go next, and what to show once (a new secret, test credentials). */
export type ActionResult = { redirect: string; reveal?: Record<string, string | number> };

type Action = { schema: z.ZodType; run: (partner: PartnerSession, input: never) => Promise<ActionResult> };
const action = <S extends z.ZodType>(schema: S, run: (partner: PartnerSession, input: z.output<S>) => Promise<ActionResult>): Action => ({ schema, run: run as Action["run"] });

const appPath = (appId: number, rest = "") => `/console/apps/${appId}${rest}`;

// Every state-changing console form, by name (POST /console/actions/{name}). Each input is
// parsed here; each function below checks that the partner owns the app it names.
export const consoleActions: Record<string, Action> = {
  "create-app": action(appInput, async (p, input) => {
    const created = await createConsoleApp(p.partnerUserId, input);
    return { redirect: appPath(created.appId), reveal: { environment: "sandbox", clientId: created.sandbox.clientId, clientSecret: created.sandbox.clientSecret } };
  }),
  "update-app": action(appRef.and(appInput), async (p, input) => {
    await updateConsoleApp(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId) };
  }),
  "rotate-secret": action(appRef.extend({ environment }), async (p, input) => {
    const rotated = await rotateSecret(p.partnerUserId, input.appId, input.environment);
    return { redirect: appPath(input.appId), reveal: { environment: input.environment, clientId: rotated.clientId, clientSecret: rotated.clientSecret } };
  }),
  "confirm-obligations": action(appRef.extend({ credentials: checkbox, driverSite: checkbox, dataStatement: checkbox }), async (p, input) => {
    const issued = await confirmObligations(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId), reveal: { environment: "production", clientId: issued.clientId, clientSecret: issued.clientSecret } };
  }),
  "create-test-account": action(appRef, async (p, input) => {
    const made = await createTestAccount(p.partnerUserId, input.appId);
    return { redirect: appPath(input.appId, "/accounts"), reveal: { accountId: made.accountId, username: made.username, password: made.password } };
  }),
  "create-test-vehicle": action(appRef.extend({ accountId: id }), async (p, input) => {
    const made = await createTestVehicle(p.partnerUserId, input.appId, input.accountId);
    return { redirect: appPath(input.appId, "/accounts"), reveal: { vehicleId: made.vehicleId, deviceId: made.deviceId } };
  }),
  "create-subscription": action(appRef.extend({ environment }).and(subscriptionForm), async (p, input) => {
    const made = await createAppSubscription(p.partnerUserId, input.appId, input.environment, input);
    return { redirect: `${appPath(input.appId, "/subscriptions")}?env=${input.environment}`, reveal: { subscriptionId: made.subscriptionId } };
  }),
  "delete-subscription": action(appRef.extend({ subscriptionId: id, environment }), async (p, input) => {
    await deleteAppSubscription(p.partnerUserId, input.appId, input.subscriptionId);
    return { redirect: `${appPath(input.appId, "/subscriptions")}?env=${input.environment}` };
  }),
  "reactivate-delivery": action(appRef.extend({ subscriptionId: id, deliveryId: id, environment, returnTo: z.enum(["subscriptions", "health"]).default("subscriptions") }), async (p, input) => {
    await reactivateDelivery(p.partnerUserId, input.appId, input.subscriptionId, input.deliveryId);
    return { redirect: `${appPath(input.appId, `/${input.returnTo}`)}?env=${input.environment}` };
  }),
  "reveal-signing-secret": action(appRef, async (p, input) => {
    return { redirect: appPath(input.appId), reveal: { signingSecret: await revealSigningSecret(p.partnerUserId, input.appId) } };
  }),
  "rotate-signing-secret": action(appRef, async (p, input) => {
    const rotated = await rotateAppSigningSecret(p.partnerUserId, input.appId);
    return { redirect: appPath(input.appId), reveal: { signingSecret: rotated.secret, previousSecretSignsUntil: rotated.previousExpiresAt.toISOString() } };
  }),
  "resend-notification": action(appRef.extend({ notificationId: id }), async (p, input) => {
    await resendNotification(p.partnerUserId, input.appId, input.notificationId);
    return { redirect: appPath(input.appId, `/notifications/${input.notificationId}`) };
  }),
  "resend-failed": action(appRef.extend({ environment, since: resendSince }), async (p, input) => {
    const resent = await resendFailed(p.partnerUserId, input.appId, input.environment, input.since);
    return { redirect: `${appPath(input.appId, "/notifications")}?env=${input.environment}`, reveal: { requeued: resent.requeued, skippedDeactivated: resent.skippedInactive, moreRemain: resent.more ? "yes: send again for the rest" : "no" } };
  }),
  "send-test-notification": action(appRef.extend({ subscriptionId: id }), async (p, input) => {
    const sent = await sendConsoleTestNotification(p.partnerUserId, input.appId, input.subscriptionId);
    return { redirect: appPath(input.appId, `/notifications/${sent.notificationId}`), reveal: { notificationId: sent.notificationId } };
  }),
  "start-simulation": action(appRef.and(simulatorForm), async (p, input) => {
    const started = await startConsoleSimulation(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId, "/simulator"), reveal: started };
  }),
  "stop-simulation": action(appRef.extend({ vehicleId: id, runId: id }), async (p, input) => {
    await stopConsoleSimulation(p.partnerUserId, input.appId, input.vehicleId, input.runId);
    return { redirect: appPath(input.appId, "/simulator") };
  }),
  "set-inbox-answer": action(appRef.extend({ answerStatus: z.enum(["200", "401", "500"], "Choose 200, 401 or 500.").transform((v) => Number(v) as 200 | 401 | 500) }), async (p, input) => {
    await setInboxAnswer(p.partnerUserId, input.appId, input.answerStatus);
    return { redirect: appPath(input.appId, "/inbox") };
  }),
  "save-route": action(appRef.and(savedRouteForm), async (p, input) => {
    const saved = await saveConsoleRoute(p.partnerUserId, input.appId, input);
    return { redirect: appPath(input.appId, "/simulator"), reveal: saved };
  }),
};

type Failure = { status: number; message: string; fieldErrors: { fieldName: string; errorDisplay: string }[] };
const fail = (status: number, message: string, fieldErrors: Failure["fieldErrors"] = []): Failure => ({ status, message, fieldErrors });

function formObject(form: FormData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    out[key] = key === "daysOfWeek" ? values : values[0];
  }
  return out;
}

// The one wrapper every console form post goes through: cross-site posts refused, a partner
// session required, the session's CSRF token required, the input parsed, the action run, and
// every refusal turned into a status with field errors (never a 500 for bad input).
// Answers JSON {redirect, reveal} to the console's forms (fetch); a plain HTML form post (no
// JavaScript) is answered 303 to `redirect` (a one-time reveal then needs JavaScript).
export async function runConsoleAction(name: string, request: Request): Promise<Response> {
  const wantsJson = (request.headers.get("accept") ?? "").includes("application/json");
  const answer = (result: ActionResult) => (wantsJson ? Response.json(result, { headers: { "Cache-Control": "no-store" } }) : new Response(null, { status: 303, headers: { Location: result.redirect } }));
  const refuse = (f: Failure) => Response.json({ error: f.message, fieldErrors: f.fieldErrors }, { status: f.status, headers: { "Cache-Control": "no-store" } });

  if (crossSitePost(request)) return refuse(fail(403, "This form was posted from another site."));
  const act = Object.hasOwn(consoleActions, name) ? consoleActions[name] : undefined;
  if (!act) return refuse(fail(404, "No such action."));
  const partner = await getPartnerSession();
  if (!partner) return refuse(fail(401, "Your session has ended. Sign in again."));
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return refuse(fail(415, "Send the form as form data."));
  }
  if (!consoleCsrfMatches(partner, form.get("csrfToken"))) return refuse(fail(403, "This form has expired. Reload the page and try again."));
  const input = formObject(form);
  // U+0000 cannot be stored (PostgreSQL): refused like any invalid field, before the schema.
  const nul = nulField(input);
  if (nul) return refuse(fail(400, "Check the highlighted fields.", [{ fieldName: nul, errorDisplay: "Must not contain the NUL character (U+0000)." }]));
  const parsed = act.schema.safeParse(input, { reportInput: true });
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error);
    // A malformed id is a guess at something that is not there.
    if (errors.some((e) => /^(appId|subscriptionId|deliveryId|notificationId|runId)$/.test(e.fieldName))) return refuse(fail(404, "No such app in your console."));
    return refuse(fail(400, "Check the highlighted fields.", errors));
  }
  try {
    return answer(await act.run(partner, parsed.data as never));
  } catch (error) {
    if (error instanceof ConsoleError) return refuse(fail(error.status, error.message, error.fieldErrors));
    if (error instanceof ApiError && error.status < 500) return refuse(fail(error.status === 404 ? 404 : error.status === 409 ? 409 : error.status === 403 ? 403 : 400, error.detail, error.fieldErrors));
    logger.error({ err: error, action: name }, "console action failed");
    return refuse(fail(500, "Something went wrong on our side. Try again."));
  }
}
